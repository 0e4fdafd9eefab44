/**
 * One season's results in tabs per distance (spec: 0.8K … 5.6K, 5.6K first). Only the open tab's results are
 * fetched: an imported results file, or a finished race of the current season read from the race itself. The
 * page's 'Sök löpare' filters the open tab's list, and the next tab's when the visitor switches.
 */
import { useDeferredValue, useMemo, useState } from "react";
import { distanceTabLabel, type DistanceKm } from "../../../shared/distances";
import type { PublishedRow } from "../../../shared/results-file";
import { LoadState } from "../../components/ui/load-state";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { kmText } from "../../lib/season-text";
import { useRunnerFilter } from "../../components/runner-search/runner-search";
import { usePublicRace } from "../start-lists/api/get-public-race";
import { resultsStatusText } from "../../lib/results-status";
import { useResultsFile } from "./api/get-results-file";
import { resultRows } from "../../../shared/public-view";
import { defaultDistance, resultLines, type ResultLine, type ResultSource, type SeasonResults } from "./result-rows";
import { ResultTable } from "./result-table";

interface DistanceResultsProps {
  distances: readonly DistanceKm[];
  /** Null while it is not yet known where the results come from. */
  season: SeasonResults | null;
  label: string;
  /**
   * The tab to open on once the sources are known (result-rows.ts openingDistance: a distance that has results);
   * until then, and without it, the spec's default. A tab the visitor picks stays picked.
   */
  opening?: DistanceKm | undefined;
}

export function DistanceResults({ distances, season, label, opening }: DistanceResultsProps) {
  const [picked, setPicked] = useState<string | null>(null);
  const fallback = defaultDistance(distances);
  const value = picked ?? (opening && distances.includes(opening) ? opening : fallback);
  return (
    <Tabs value={value} onValueChange={setPicked} className="results-tabs">
      <TabsList aria-label={label}>
        {distances.map((d) => (
          <TabsTrigger key={d} value={d}>
            {distanceTabLabel(d)}
          </TabsTrigger>
        ))}
      </TabsList>
      {distances.map((d) => (
        <TabsContent key={d} value={d} className="results-panel">
          {season === null ? (
            <p className="muted" role="status">
              Hämtar resultat …
            </p>
          ) : (
            <SourceResults source={season.sources[d]} year={season.year} distance={d} />
          )}
        </TabsContent>
      ))}
    </Tabs>
  );
}

function SourceResults({ source, year, distance }: { source?: ResultSource; year: number; distance: DistanceKm }) {
  const caption = `Resultat ${year}, ${kmText(distance)}`;
  if (!source)
    return (
      <p className="results-empty">
        Det finns inga resultat på {kmText(distance)} från {year}.
      </p>
    );
  return source.kind === "file" ? (
    <FileResults file={source.file} caption={caption} />
  ) : (
    <RaceResults part={source.part} caption={caption} />
  );
}

function FileResults({ file, caption }: { file: string; caption: string }) {
  const query = useResultsFile(file);
  return <Results rows={query.data} query={query} caption={caption} />;
}

function RaceResults({ part, caption }: { part: string; caption: string }) {
  // An ended race changes only by an organiser's correction: followed live on its race day, read once after.
  const query = usePublicRace(part, { live: "race-day" });
  const rows = useMemo(() => (query.data ? resultRows(query.data) : undefined), [query.data]);
  const status = query.data ? resultsStatusText(query.data[0]) : null;
  return <Results rows={rows} query={query} caption={caption} status={status} />;
}

function Results({
  rows,
  query,
  caption,
  status = null,
}: {
  rows: readonly PublishedRow[] | undefined;
  query: Parameters<typeof LoadState>[0]["query"];
  caption: string;
  /** A race's results status ('Resultaten är preliminära.'); null for a results file. */
  status?: string | null;
}) {
  // As a transition: see results-page.tsx.
  const shownRows = useDeferredValue(rows);
  const lines = useMemo(() => (shownRows ? resultLines(shownRows) : NO_LINES), [shownRows]);
  const search = useRunnerFilter(lines, lineKey, lineFields, "löpare i mål");
  if (!shownRows) return <LoadState query={query} loading="Hämtar resultat …" />;
  if (lines.length === 0) return <p className="results-empty">Ingen har gått i mål på distansen.</p>;
  return (
    <>
      <p className={search.summary ? "results-count search-status" : "results-count muted"} role="status">
        {search.summary ?? `${lines.length} löpare i mål`}
      </p>
      {status && <p className="results-status-text">{status}</p>}
      <ResultTable lines={lines} caption={caption} visibleKeys={search.visibleKeys} />
    </>
  );
}

const NO_LINES: ResultLine[] = [];
const lineKey = (l: ResultLine) => l.key;
const lineFields = (l: ResultLine) => ({ name: l.name, club: l.club, bib: l.bib });
