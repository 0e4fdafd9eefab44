/**
 * /resultat/{year}: one earlier year's results in tabs per distance with 'Sök löpare' over them, read from that
 * year's results files (`/resultat/{csvfile}`); the search stays when the visitor goes on to another year. Not
 * pre-rendered: the Worker answers the SPA shell with this page's title and sharing tags, and 404 for a year
 * without results (src/worker/site/pages-routes.ts); the page then says so in Swedish.
 */
import { Link, useParams } from "react-router";
import { LoadState } from "../../components/ui/load-state";
import { useDocumentTitle } from "../../lib/use-document-title";
import { RunnerSearch, RunnerSearchField } from "../runner-search/runner-search";
import { useResultSets } from "./api/get-result-sets";
import { DistanceResults } from "./distance-results";
import { fileSources, otherYears, yearDistances } from "./result-rows";
import { YearLinks } from "./year-links";

export default function ResultsYearPage() {
  const param = useParams().year ?? "";
  const year = /^\d{4}$/.test(param) ? Number(param) : null;
  const sets = useResultSets();
  const distances = year !== null && sets.data ? yearDistances(sets.data, year) : [];
  const missing = year === null || (sets.data !== undefined && distances.length === 0);
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
          {sets.data && year !== null ? (
            <DistanceResults
              key={year}
              distances={distances}
              season={{ year, sources: fileSources(sets.data, year) }}
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
          <YearLinks years={otherYears(sets.data, year)} label="Resultat från andra år" />
        ) : (
          <LoadState query={sets} loading="Hämtar åren …" />
        )}
      </section>
    </section>
  );
}
