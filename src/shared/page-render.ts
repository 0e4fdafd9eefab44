/**
 * The seam between the Worker and the SPA for the data pages' first HTML (`/startlistor`, `/resultat`): the Worker
 * answers those pages with the SPA rendered on the Worker and the page's data in the HTML. The Worker never imports
 * the SPA's code itself (ESLint holds it to that): it reaches the renderer (src/web/entry-server.tsx) through the
 * package import `#page-renderer` (package.json `imports`), whose type is `RenderDataPage` below, so both sides
 * are checked against this one file.
 *
 * What travels: the page's queries (react-query keys and their data) as `<script type="application/json"
 * id="page-data">`, which the Content Security Policy allows (it is not run), read by the browser before it
 * hydrates (src/web/app/page-data.ts), so its first render is the HTML already on screen.
 */
import type { DistanceKm } from "./distances";
import type { PublicRaceView } from "./public-view";
import type { RaceRecord } from "./race-protocol";
import type { PublishedRow } from "./results-file";

export const PAGE_DATA_ID = "page-data";

/** The paths whose first HTML the Worker renders with their data. */
export const DATA_PAGES = ["/startlistor", "/resultat"] as const;
export type DataPagePath = (typeof DATA_PAGES)[number];

export function isDataPage(path: string): path is DataPagePath {
  return (DATA_PAGES as readonly string[]).includes(path);
}

/** `GET /api/records`. */
export interface PublicCourseRecord {
  distance: DistanceKm;
  name: string;
  time: string;
  timeMs: number;
  year: number;
}

/** `GET /api/results`. */
export interface PublicResultSet {
  year: number;
  distance: DistanceKm;
  runners: number;
  file: string;
}

/** What the Worker reads for a page, each as the public endpoint answers it. */
export interface PageDataLoader {
  races(): Promise<RaceRecord[]>;
  records(): Promise<PublicCourseRecord[]>;
  resultSets(): Promise<PublicResultSet[]>;
  /** One results file's rows as a browser reads them from `/resultat/{file}`; null when there is none. */
  resultsFile(file: string): Promise<PublishedRow[] | null>;
  /** One race's public view; null for an unknown race. */
  race(part: string): Promise<PublicRaceView | null>;
}

export interface PageQuery {
  key: readonly unknown[];
  data: unknown;
  /**
   * Data that changes on race day (the races' states, a race's results): the browser takes it for its first render
   * and asks for it again at once, since the page may have waited a few seconds in a cache.
   */
  refresh?: true;
}

export interface PageData {
  queries: PageQuery[];
}

export interface RenderedDataPage {
  /** The inside of `#root`. */
  root: string;
  /** The page's data, as read before hydration. */
  data: PageData;
}

export type RenderDataPage = (path: DataPagePath, loader: PageDataLoader) => Promise<RenderedDataPage>;

/**
 * The data as a `<script type="application/json">` element. `<` is written `\u003c`, so no text in the data (a
 * runner named `</script>`) can end the element; JSON.parse reads it back unchanged.
 */
export function pageDataScript(data: PageData): string {
  const json = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/json" id="${PAGE_DATA_ID}">${json}</script>`;
}
