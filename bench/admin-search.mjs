/**
 * The registrations overview's search (/admin/list-by-race) over a season of 2,000 registrations, in this process
 * (no server): the pure rules of src/shared/registrations-overview.ts, which the page runs in the browser.
 *
 * The season is the one test/web/registrations-overview.test.ts checks the search over: 2,000 families of three
 * runners (6,000 runners on the four distances), four in five paid. Timed with performance.now(), after warm-up
 * rounds:
 * - a keystroke: what registrations-page.tsx recomputes when the search text changes, `filterGroups` over the
 *   grouped season and `filterParticipantRows` over the paid runners' rows; every prefix of a typed query is one
 *   keystroke (SEARCH_BENCH_ROUNDS rounds, default 30, of the queries in QUERIES);
 * - a season loaded (or fetched again after a refund): what the page recomputes from a new list,
 *   `overviewTotals`, `groupByDistance` and `paidParticipantRows`.
 * Median, p95 and max of each; the medians are judged against the bounds the unit test used to assert before the
 * timing moved here (a keystroke < 100 ms, a season < 250 ms). The results are checked once before timing, so a
 * broken search is a failure, not a fast figure.
 */
import { register } from "node:module";
import { performance } from "node:perf_hooks";
import { percentile, round } from "./lib/http.mjs";

const FAMILIES = 2000;
const ROUNDS = Number(process.env.SEARCH_BENCH_ROUNDS ?? 30);
const WARM_UP_ROUNDS = 3;
/** Typed letter by letter: one family's runner, one family's e-mail, a word most runners match, and no match. */
const QUERIES = ["namn1999x", "familj1999@", "namn", "zz"];
const KEYSTROKE_TARGET_MS = 100;
const SEASON_TARGET_MS = 250;

export async function run() {
  register(new URL("../scripts/lib/ts-hooks.mjs", import.meta.url));
  const rules = await import("../src/shared/registrations-overview.ts");
  const season = makeSeason();
  check(rules, season);

  const keystrokes = [];
  const loads = [];
  for (let r = 0; r < WARM_UP_ROUNDS + ROUNDS; r++) {
    const counted = r >= WARM_UP_ROUNDS;
    let started = performance.now();
    rules.overviewTotals(season);
    const groups = rules.groupByDistance(season);
    const paidRows = rules.paidParticipantRows(season);
    if (counted) loads.push(performance.now() - started);
    for (const query of QUERIES) {
      for (let n = 1; n <= query.length; n++) {
        const typed = query.slice(0, n);
        started = performance.now();
        rules.filterGroups(groups, typed);
        rules.filterParticipantRows(paidRows, typed);
        if (counted) keystrokes.push(performance.now() - started);
      }
    }
  }

  const figures = {
    registrations: FAMILIES,
    runners: FAMILIES * 3,
    rounds: ROUNDS,
    warmUpRounds: WARM_UP_ROUNDS,
    queries: QUERIES,
    keystrokeMs: stats(keystrokes),
    seasonLoadMs: stats(loads),
    keystrokeTargetMs: KEYSTROKE_TARGET_MS,
    seasonLoadTargetMs: SEASON_TARGET_MS,
    method:
      "I Node-processen, performance.now(). Tangenttryck: filterGroups + filterParticipantRows för varje prefix " +
      "av frågorna (det sidan räknar om när söktexten ändras). Säsong laddad: overviewTotals + groupByDistance + " +
      "paidParticipantRows (det sidan räknar om för en ny lista). Uppvärmningsrundor räknas inte.",
  };
  const k = figures.keystrokeMs;
  const s = figures.seasonLoadMs;
  const met = (value, target) => (value < target ? "uppfyllt" : "EJ uppfyllt");
  const summary = [
    `Sökning i anmälningsöversikten, ${FAMILIES} anmälningar (${figures.runners} löpare), ${ROUNDS} rundor:`,
    `  tangenttryck (${k.n}): median ${k.median} ms   p95 ${k.p95} ms   max ${k.max} ms   ` +
      `(gräns: median < ${KEYSTROKE_TARGET_MS} ms, ${met(k.median, KEYSTROKE_TARGET_MS)})`,
    `  säsong laddad (${s.n}): median ${s.median} ms   p95 ${s.p95} ms   max ${s.max} ms   ` +
      `(gräns: median < ${SEASON_TARGET_MS} ms, ${met(s.median, SEASON_TARGET_MS)})`,
  ].join("\n");
  return { figures, summary };
}

/** The 2,000-registration season of test/web/registrations-overview.test.ts ("over 2,000 registrations"). */
function makeSeason() {
  const distances = ["0.8", "1.6", "2.8", "5.6"];
  const hex = (n) => n.toString(16).toUpperCase().padStart(32, "0");
  return Array.from({ length: FAMILIES }, (_, i) => {
    const runners = [0, 1, 2].map((j) => ({
      id: `r${i}-${j}`,
      firstname: `Namn${i}x${j}`,
      lastname: "Svensson",
      age: 5 + ((i + j) % 60),
      distance: distances[(i + j) % 4],
      bib: null,
      company: "",
      group: "Ingen",
    }));
    const datePaid = new Date(Date.UTC(2025, 6, 1) + i * 60_000).toISOString();
    const payments =
      i % 5 === 0
        ? []
        : [
            {
              id: hex(10_000 + i),
              amount: 250,
              currency: "SEK",
              status: "PAID",
              dateCreated: datePaid,
              datePaid,
              paymentReference: null,
              payerAlias: null,
              errorCode: null,
              errorMessage: null,
              refunds: [],
              refunded: 0,
              refundable: 0,
            },
          ];
    return {
      id: `r${i}`,
      email: `familj${i}@example.se`,
      payid: payments.at(-1)?.id ?? null,
      createdAt: "2025-07-01T08:00:00.000Z",
      swishtory: Object.fromEntries(payments.map((p) => [p.id, p])),
      deltagare: Object.fromEntries(runners.map((r) => [r.id, r])),
    };
  });
}

/** What the timed calls must answer (as the unit test checks), once, untimed. */
function check(rules, season) {
  const groups = rules.groupByDistance(season);
  const paidRows = rules.paidParticipantRows(season);
  const fail = (what) => {
    throw new Error(`Sökningen svarar fel: ${what}`);
  };
  if (groups.reduce((n, g) => n + g.count, 0) !== FAMILIES * 3) fail("grupperna räknar inte alla 6000 löpare");
  if (paidRows.length !== (FAMILIES - FAMILIES / 5) * 3) fail("fel antal betalda löpare");
  if (rules.filterGroups(groups, "namn1999x").reduce((n, g) => n + g.count, 0) !== 3) fail("namn1999x");
  if (rules.filterParticipantRows(paidRows, "familj1999@").length !== 3) fail("familj1999@");
  if (rules.filterGroups(groups, "zz").some((g) => g.count !== 0)) fail("zz hittade något");
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: round2(percentile(sorted, 50)),
    p95: round2(percentile(sorted, 95)),
    max: round2(sorted.at(-1) ?? 0),
    min: round2(sorted[0] ?? 0),
  };
}

/** Keystrokes take well under a millisecond idle; one decimal would show them as 0. */
function round2(n) {
  return n >= 10 ? round(n) : Math.round(n * 100) / 100;
}
