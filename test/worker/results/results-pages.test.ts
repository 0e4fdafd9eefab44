/**
 * /resultat/{year}: an older year's results page. The Worker answers the SPA shell with the year's title and
 * sharing tags, 200 when the year has results and 404 when not; the results files under the same /resultat/ path
 * still answer as files. The pre-rendered pages get their og:url from the public origin. As in pages.test.ts,
 * ASSETS is an in-memory asset server (the test environment has no built SPA).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import { ensureSeasonRaces, setRaceState } from "../../../src/worker/race-day/races-db";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { replaceResults } from "../../../src/worker/results/results-db";
import { call } from "../helpers";

const SHELL =
  '<!doctype html><html lang="sv"><head><meta charset="utf-8" /><title>Byloppet</title>' +
  '<meta name="description" content="Byloppet – ett lopp för hela familjen." /></head>' +
  '<body><div id="root"></div></body></html>';

const assets = {
  async fetch(input: RequestInfo | URL, init?: RequestInit) {
    const { pathname } = new URL(new Request(input, init).url);
    const file =
      pathname === "/" ? SHELL : pathname === "/resultat" ? SHELL.replace("<div id", "<div data-x id") : null;
    if (file === null) return new Response("not found", { status: 404 });
    return new Response(file, { headers: { "content-type": "text/html; charset=utf-8", etag: '"v1"' } });
  },
  connect() {
    throw new Error("not used");
  },
} as unknown as Fetcher;

const open = (path: string) =>
  call(path, { headers: { "sec-fetch-mode": "navigate", accept: "text/html" }, env: { ASSETS: assets } });

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe("GET /resultat/{year}", () => {
  it("answers the SPA shell with the year's title, description and Open Graph tags", async () => {
    await replaceResults(database(env.DB), 2019, "5.6", [
      { place: 1, name: "Anna Öberg", timeMs: 1_200_000, klass: "Dam", bib: 601, club: "" },
    ]);
    const res = await open("/resultat/2019");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain("<title>Resultat 2019 – Byloppet</title>");
    expect(html).toMatch(/<html lang="sv"[^>]*data-registration-button="(open|closed)"/);
    expect(meta(html, "description")).toMatch(/^Resultaten från Byloppet 2019/);
    expect(meta(html, "og:title")).toBe("Resultat 2019 – Byloppet");
    expect(meta(html, "og:description")).toBe(meta(html, "description"));
    expect(meta(html, "og:locale")).toBe("sv_SE");
    expect(meta(html, "og:url")).toBe("http://localhost:8787/resultat/2019");
    // One description, not the shell's plus ours.
    expect(html.match(/name="description"/g)).toHaveLength(1);
  });

  it("answers 404 with the same shell for a year without results (the page says so in Swedish)", async () => {
    const res = await open("/resultat/1987");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain("<title>Resultat saknas – Byloppet</title>");
  });

  it("answers 200 for the current season as soon as one of its races is under way, without any imported file", async () => {
    const db = database(env.DB);
    await ensureSeasonRaces(db, SEASON);
    const year = SEASON.year;
    const before = await open(`/resultat/${year}`);
    expect(before.status).toBe(404);
    await before.text();
    await setRaceState(db, raceIdForSeason("0.8", SEASON), "started", Date.UTC(year, 8, 13, 9));
    const res = await open(`/resultat/${year}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<title>Resultat ${year} – Byloppet</title>`);
    // A year before the season is its files alone: a race of that year (there is none) changes nothing.
    expect((await open(`/resultat/${year - 1}`)).status).toBe(404);
  });

  it("leaves the results files and other names under /resultat/ to the data routes", async () => {
    await replaceResults(database(env.DB), 2020, "0.8", [
      { place: 1, name: "Bo Ek", timeMs: 180_000, klass: "", bib: null, club: "" },
    ]);
    const file = await open("/resultat/resultat-2020-08.csv");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await file.text()).toContain("1;Bo Ek;03:00.000;;;");
    for (const name of ["20200", "202", "nonsense"]) {
      const res = await open(`/resultat/${name}`);
      expect(res.status, name).toBe(404);
      expect(await res.json()).toEqual({ error: "Resultatfilen finns inte" });
    }
  });
});

describe("the pre-rendered pages' og:url", () => {
  it("is the public origin plus the page's path", async () => {
    const res = await open("/resultat");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<div data-x id");
    expect(meta(html, "og:url")).toBe("http://localhost:8787/resultat");
  });
});
