/**
 * /resultat (spec, public site "Results"): the course records, the latest season's results in tabs per distance
 * (5.6K first) with 'Sök löpare' over them, and links to every older year. Pre-rendered at build
 * (entry-prerender.tsx) with everything that does not depend on the organiser's data: headings, the records
 * table's rows per distance, the search field, the tabs. The records, the results and the years come from the
 * Worker (they are imported data, DESIGN.md §10) into places whose size is already reserved, so nothing shifts
 * when they arrive.
 */
import { useDeferredValue } from "react";
import { Link } from "react-router";
import { DISTANCES } from "../../../shared/distances";
import { SEASON } from "../../../shared/season";
import { LoadState } from "../../components/ui/load-state";
import { useDocumentTitle } from "../../lib/use-document-title";
import { RunnerSearch, RunnerSearchField } from "../../components/runner-search/runner-search";
import { DistanceResults } from "./distance-results";
import { RecordsTable } from "./records-table";
import { latestSeason, openingDistance, otherYears, sourceDistances, startOrder } from "./result-rows";
import { useSeasonResults } from "./use-season-results";
import { YearLinks } from "./year-links";

export default function ResultsPage() {
  useDocumentTitle("Resultat");
  const current = useSeasonResults();
  const sets = current.sets;
  // Data is rendered as a transition (useDeferredValue), which React splits into short tasks: an answer arriving
  // while a slow phone is still starting up never becomes one long task.
  const setsData = useDeferredValue(sets.data);
  const racesKnown = useDeferredValue(current.racesKnown);
  const season =
    setsData && racesKnown ? latestSeason(setsData, racesKnown, SEASON.year, current.finishers) : undefined;

  return (
    <section className="page results-page">
      <h1>Resultat</h1>
      {/* Static text, not a notice that appears while a race runs: anything inserted up here would push the page. */}
      <p className="page-lead">
        Banrekorden, resultaten från det senaste loppet och från alla år sedan starten.{" "}
        <a href="#tidigare-ar">Tidigare år</a> finns längre ner. Medan ett lopp pågår visas tiderna live under{" "}
        <Link to="/startlistor">Startlistor</Link>.
      </p>

      <section className="results-section" aria-labelledby="banrekord">
        <h2 id="banrekord">Banrekord</h2>
        <RecordsTable />
      </section>

      <section className="results-section" aria-labelledby="senaste-resultat">
        <h2 id="senaste-resultat">{season ? `Resultat ${season.year}` : "Senaste resultaten"}</h2>
        {/* In the pre-rendered HTML (before the tabs), so it takes its place before any data arrives. */}
        <RunnerSearch>
          <RunnerSearchField />
          {sets.isError ? (
            <LoadState query={sets} loading="" />
          ) : season === null ? (
            <p className="results-empty">Det finns inga resultat ännu.</p>
          ) : (
            <DistanceResults
              distances={DISTANCES}
              season={season ?? null}
              opening={season ? openingDistance(sourceDistances(season.sources), startOrder(SEASON)) : undefined}
              label="Distanser"
            />
          )}
        </RunnerSearch>
      </section>

      <section className="results-section" aria-labelledby="tidigare-ar">
        <h2 id="tidigare-ar">Tidigare år</h2>
        {setsData ? (
          <YearLinks years={otherYears(setsData, season?.year ?? null)} label="Resultat från tidigare år" />
        ) : (
          <LoadState query={sets} loading="Hämtar åren …" className="year-links-loading" />
        )}
      </section>
    </section>
  );
}
