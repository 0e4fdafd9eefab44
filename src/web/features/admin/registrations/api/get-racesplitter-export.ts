/**
 * GET /admin/api/export2racesplitter: the RaceSplitter participant list as CSV text (spec: "text response, shown
 * in an alert"). Fetched when the organiser opens it, never on page load, and fetched anew each time.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../../lib/api";

export const RACESPLITTER_PATH = "/admin/api/export2racesplitter";

export async function getRaceSplitterExport(): Promise<string> {
  const text = await api<unknown>(RACESPLITTER_PATH, { headers: { accept: "text/csv" } });
  return typeof text === "string" ? text : "";
}

export const raceSplitterQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "export2racesplitter"],
    queryFn: getRaceSplitterExport,
    staleTime: 0,
    gcTime: 0,
  });

export function useRaceSplitterExport(enabled: boolean) {
  return useQuery({ ...raceSplitterQueryOptions(), enabled });
}

/** The file the organiser downloads: the same text, as an attachment (`?download=1`). */
export const RACESPLITTER_DOWNLOAD_PATH = `${RACESPLITTER_PATH}?download=1`;

/** The full registrations CSV of a season: a plain download link (the admin cookie goes along). */
export function registrationsCsvPath(season: number): string {
  return `/admin/api/export/registrations.csv?season=${season}`;
}
