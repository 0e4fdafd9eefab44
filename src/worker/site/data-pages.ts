/**
 * The data pages' first HTML (`/startlistor`, `/resultat`): the SPA rendered on the Worker from the page's data
 * (`#page-renderer`, src/shared/page-render.ts), read as the public endpoints answer it, a race's view from its
 * cached public view (never the race object). pages-routes.ts puts it into the pre-rendered page.
 *
 * This isolate keeps each rendered page, a settled value, for RENDERED_COPY_MS (a crowd opening the start lists
 * costs one render per isolate in that time; the edge cache keeps it a few seconds too); a request that finds no
 * fresh copy renders one itself, never awaiting another request's render.
 */
import { renderDataPage } from "#page-renderer";
import { pageDataScript, type DataPagePath, type PageDataLoader } from "../../shared/page-render";
import { publicRaceList } from "../../shared/public-view";
import { parseResultsFileName } from "../../shared/results-file";
import type { Db } from "../db/client";
import { publicRaceAnswer } from "../race-day/public-races";
import { listRaceRecords } from "../race-day/races-db";
import { publicCourseRecords, publicResultSets, publicResultsRows } from "../results/public-results";
import { keptInIsolate } from "../lib/isolate-memory";

export const RENDERED_COPY_MS = 5_000;

export interface DataPage {
  /** The inside of #root. */
  root: string;
  /** The page's data as its `<script type="application/json">`. */
  script: string;
  /** A short digest of both, for the page's ETag. */
  digest: string;
}

const rendered = keptInIsolate(new Map<DataPagePath, { page: DataPage; at: number }>());

export async function dataPage(env: Env, db: Db, path: DataPagePath, now: number): Promise<DataPage> {
  const copy = rendered.get(path);
  if (copy && now >= copy.at && now - copy.at < RENDERED_COPY_MS) return copy.page;
  const { root, data } = await renderDataPage(path, loader(env, db, now));
  const script = pageDataScript(data);
  const page = { root, script, digest: fnv1a(root + script) };
  rendered.set(path, { page, at: now });
  return page;
}

function loader(env: Env, db: Db, now: number): PageDataLoader {
  return {
    races: async () => publicRaceList(await listRaceRecords(db)),
    records: () => publicCourseRecords(db),
    resultSets: () => publicResultSets(db),
    resultsFile: async (file) => {
      const named = parseResultsFileName(file);
      return named ? publicResultsRows(db, named.year, named.distance) : null;
    },
    race: async (part) => (await publicRaceAnswer(env, db, part, now))?.view ?? null,
  };
}

/** FNV-1a, 32 bits, as 8 hex digits: tells two renders apart for an ETag (not a security measure). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
