/**
 * The data pages' first HTML, rendered on the Worker (src/worker/site/data-pages.ts reaches this file through the
 * package import `#page-renderer`, src/shared/page-render.ts). Each page names the queries its first render reads,
 * the Worker loads them as the public endpoints would answer, and the page is rendered from a cache holding exactly
 * those: the same tree and data the browser hydrates after seeding its cache from the page's data. What changes on
 * race day (the races, a race's results) is marked to be asked for again once the page has rendered: the page may
 * have waited a few seconds in a cache (the isolate's, the edge's).
 * - /startlistor: the races, so the years and their distances are in the HTML.
 * - /resultat: the course records, which years have results, the races (the current season shows once one of its
 *   races has ended), and the results of the tab open at first (5.6K): an imported file, or the ended race itself.
 */
import { DISTANCES } from "../shared/distances";
import type { PageDataLoader, PageQuery, RenderDataPage } from "../shared/page-render";
import { SEASON } from "../shared/season";
import { createQueryClient } from "./app/query-client";
import { renderRoot } from "./app/render-root";
import { seedPageData } from "./app/page-data";
import { recordsQueryOptions } from "./features/results/api/get-records";
import { resultSetsQueryOptions } from "./features/results/api/get-result-sets";
import { resultsFileQueryOptions } from "./features/results/api/get-results-file";
import { defaultDistance, latestSeason } from "./features/results/result-rows";
import { publicRaceQueryOptions } from "./features/start-lists/api/public-race-query";
import { publicRacesQueryOptions } from "./features/start-lists/api/get-public-races";

export const renderDataPage: RenderDataPage = async (path, loader) => {
  const data = { queries: await pageQueries(path, loader) };
  const queryClient = createQueryClient();
  seedPageData(queryClient, data);
  return { root: await renderRoot(path, queryClient), data };
};

async function pageQueries(path: Parameters<RenderDataPage>[0], loader: PageDataLoader): Promise<PageQuery[]> {
  if (path === "/startlistor") {
    return [{ key: publicRacesQueryOptions().queryKey, data: await loader.races(), refresh: true }];
  }
  const [records, sets, races] = await Promise.all([loader.records(), loader.resultSets(), loader.races()]);
  const queries: PageQuery[] = [
    { key: recordsQueryOptions().queryKey, data: records },
    { key: resultSetsQueryOptions().queryKey, data: sets },
    { key: publicRacesQueryOptions().queryKey, data: races, refresh: true },
  ];
  const source = latestSeason(sets, races, SEASON.year)?.sources[defaultDistance(DISTANCES)];
  if (source?.kind === "file") {
    const rows = await loader.resultsFile(source.file);
    if (rows) queries.push({ key: resultsFileQueryOptions(source.file).queryKey, data: rows });
  } else if (source?.kind === "race") {
    const view = await loader.race(source.part);
    if (view) queries.push({ key: publicRaceQueryOptions(source.part).queryKey, data: view, refresh: true });
  }
  return queries;
}
