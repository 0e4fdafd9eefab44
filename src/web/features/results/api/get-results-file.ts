/**
 * GET /resultat/{csvfile} (spec: "Semicolon-separated text"): one year's results on one distance, read with the
 * shared results-file rules. A file with a line those rules refuse is shown as an error rather than in part.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { parsePublishedResults, type PublishedRow } from "../../../../shared/results-file";
import { api } from "../../../lib/api";
import { RESULTS_STALE_MS } from "./get-result-sets";

/** The file as published: a runner withheld by child-safe publishing is a 'Fullföljt' line without a placing. */
export async function getResultsFile(file: string): Promise<PublishedRow[]> {
  const text = await api<unknown>(`/resultat/${encodeURIComponent(file)}`, { headers: { accept: "text/csv" } });
  if (typeof text !== "string") throw new Error("Resultatfilen kunde inte läsas.");
  const { rows, errors } = parsePublishedResults(text);
  if (errors.length > 0) throw new Error(`Resultatfilen kunde inte läsas. ${errors[0]!.message}`);
  return rows;
}

export const resultsFileQueryOptions = (file: string) =>
  queryOptions({
    queryKey: ["public", "results", file],
    queryFn: () => getResultsFile(file),
    staleTime: RESULTS_STALE_MS,
  });

export function useResultsFile(file: string) {
  return useQuery(resultsFileQueryOptions(file));
}
