/**
 * Which runner a mistyped bib most likely meant (issue 26, item 3): a bib typed at the finish that is not in the
 * race, or that names a runner who already has a time, is compared with the bibs of the runners still waiting.
 * The usual slips on a numeric keypad:
 * - 'swapped': two digits swapped (615 for 651); neighbours first, then any two;
 * - 'one-digit': one digit wrong (652 for 651);
 * - 'missing': a digit left out (61 for 611, 51 for 651);
 * - 'doubled': a digit typed twice (6511 for 651).
 * Pure: the race object offers these on the review list, and a phone can show the same.
 */

export type SuggestionReason = "swapped" | "one-digit" | "missing" | "doubled";

export interface BibSuggestion {
  bib: number;
  reason: SuggestionReason;
}

/** How each slip reads on the review list. */
export const SUGGESTION_REASON_TEXT: Record<SuggestionReason, string> = {
  swapped: "två siffror omkastade",
  "one-digit": "en siffra fel",
  missing: "en siffra saknas",
  doubled: "en siffra dubbelskriven",
};

/** At most this many suggestions by default. */
export const MAX_SUGGESTIONS = 5;

/**
 * The candidates `typed` may be a slip for, most likely first: a swap of neighbouring digits, one wrong digit, a
 * missing digit, a doubled digit, then a swap of two digits further apart; within each, the nearest number first.
 * `typed` itself is never suggested; each candidate at most once.
 */
export function likelyBibs(typed: number, candidates: Iterable<number>, limit = MAX_SUGGESTIONS): BibSuggestion[] {
  if (!Number.isSafeInteger(typed) || typed < 0) return [];
  const t = String(typed);
  const found: { bib: number; reason: SuggestionReason; rank: number }[] = [];
  const seen = new Set<number>();
  for (const bib of candidates) {
    if (!Number.isSafeInteger(bib) || bib <= 0 || bib === typed || seen.has(bib)) continue;
    seen.add(bib);
    const slip = slipBetween(t, String(bib));
    if (slip) found.push({ bib, ...slip });
  }
  return found
    .sort((x, y) => x.rank - y.rank || Math.abs(x.bib - typed) - Math.abs(y.bib - typed) || x.bib - y.bib)
    .slice(0, Math.max(0, limit))
    .map(({ bib, reason }) => ({ bib, reason }));
}

/** The slip that turns the meant digits `c` into the typed `t`, with its rank (lower: more likely), or null. */
function slipBetween(t: string, c: string): { reason: SuggestionReason; rank: number } | null {
  if (t.length === c.length) {
    const differ: number[] = [];
    for (let i = 0; i < t.length; i += 1) if (t[i] !== c[i]) differ.push(i);
    if (differ.length === 1) return { reason: "one-digit", rank: 1 };
    if (differ.length === 2) {
      const [i, j] = differ as [number, number];
      if (t[i] === c[j] && t[j] === c[i]) return { reason: "swapped", rank: j === i + 1 ? 0 : 4 };
    }
    return null;
  }
  if (c.length === t.length + 1) {
    // A digit of the meant bib was left out.
    for (let k = 0; k < c.length; k += 1)
      if (c.slice(0, k) + c.slice(k + 1) === t) return { reason: "missing", rank: 2 };
    return null;
  }
  if (t.length === c.length + 1) {
    // A digit was typed twice: dropping one of two equal neighbours gives the meant bib.
    for (let k = 1; k < t.length; k += 1) {
      if (t[k] === t[k - 1] && t.slice(0, k) + t.slice(k + 1) === c) return { reason: "doubled", rank: 3 };
    }
  }
  return null;
}
