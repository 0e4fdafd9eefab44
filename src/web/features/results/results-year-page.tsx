/**
 * /resultat/{year}: one year's results in tabs per distance with 'Sök löpare' over them, read from that year's
 * results files (`/resultat/{csvfile}`) and, for the current season, from its races as soon as one has results
 * (live on race day); the search stays when the visitor goes on to another year. Not pre-rendered: the Worker
 * answers the SPA shell with this page's title and sharing tags, and 404 for a year without results
 * (src/worker/site/pages-routes.ts); the page then says so in Swedish.
 */
import { Link, useParams } from "react-router";
import { SEASON } from "../../../shared/season";
import { LoadState } from "../../components/ui/load-state";
import { useDocumentTitle } from "../../lib/use-document-title";
import { RunnerSearch, RunnerSearchField } from "../../components/runner-search/runner-search";
import { DistanceResults } from "./distance-results";
import { openingDistance, otherYears, seasonSources, sourceDistances, startOrder } from "./result-rows";
import { useSeasonResults } from "./use-season-results";
import { YearLinks } from "./year-links";

export default function ResultsYearPage() {
  const param = useParams().year ?? "";
  const year = /^\d{4}$/.test(param) ? Number(param) : null;
  const current = useSeasonResults();
  const sets = current.sets;
  // Only the current season has races with results of their own; any other year is its imported files alone.
  const racesKnown = year === SEASON.year ? current.racesKnown : [];
  const known = sets.data !== undefined && racesKnown !== undefined;
  const sources =
    year !== null && sets.data && racesKnown ? seasonSources(sets.data, racesKnown, year, current.finishers) : {};
  const distances = sourceDistances(sources);
  const missing = year === null || (known && distances.length === 0);
  const seasonHasResults =
    sets.data !== undefined &&
    current.racesKnown !== undefined &&
    sourceDistances(seasonSources([], current.racesKnown, SEASON.year, current.finishers)).length > 0;
  useDocumentTitle(missing ? "Resultat saknas" : `Resultat ${year}`);

  return (
    <section className="page results-page">
      <p className="back-link">
        <Link to="/resultat">← Alla resultat och banrekord</Link>
      </p>
      <h1>{year === null ? "Resultat" : `Resultat ${year}`}</h1>
      {missing ? (
        <div className="alert alert-warning" role="alert">
          <p>
            {year === null
              ? `"${param}" är inget årtal. Välj ett år nedan.`
              : `Det finns inga resultat från ${year}. Välj ett annat år nedan.`}
          </p>
        </div>
      ) : (
        <RunnerSearch>
          <RunnerSearchField />
          {known && year !== null ? (
            <DistanceResults
              key={year}
              distances={distances}
              season={{ year, sources }}
              opening={openingDistance(distances, startOrder(SEASON))}
              label={`Distanser ${year}`}
            />
          ) : (
            <LoadState query={sets} loading="Hämtar resultat …" className="results-panel" />
          )}
        </RunnerSearch>
      )}

      <section className="results-section" aria-labelledby="andra-ar">
        <h2 id="andra-ar">Andra år</h2>
        {sets.data ? (
          <YearLinks
            years={otherYears(sets.data, year, { seasonYear: SEASON.year, seasonHasResults })}
            label="Resultat från andra år"
          />
        ) : (
          <LoadState query={sets} loading="Hämtar åren …" />
        )}
      </section>
    </section>
  );
}
