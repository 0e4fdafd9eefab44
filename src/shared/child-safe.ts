/**
 * Child-safe publishing (issue 28, item 5): the organiser's choice, a season setting (`childSafePublishing` in
 * season.ts, off by default so a new season gets the spec's behaviour).
 *
 * Svensk Friidrott's rules for competitions for children ("Tävlingar för barn", for those 11 years and younger)
 * say results are not compiled into a results list on the web, and that the organiser should give every child a
 * diploma or a results card of their own; Riksidrottsförbundet's guidelines for children's sport say there are no
 * ranking lists for children. When the setting is on, a runner aged 11 or under (the age given at registration,
 * which is the age in the race's year) has no time and no placing in anything the public sees: start lists,
 * results, the public CSV and JSON, the spectators' view. They are listed as 'Fullföljt' once they have finished,
 * are not ranked, and the older runners' placings are counted among the published runners only. The family still
 * sees their own child's time, and the diploma has it.
 *
 * These are the rules as plain functions; where they apply:
 * - a race of the season: the one public view (shared/public-view.ts) takes `publishingRules(season)`;
 * - imported results (earlier years): a line whose file gives an age (the optional `Ålder` column), or an age
 *   class ('P10', 'F9', 'Flickor 10–11', 'U12' …), is withheld by the same rule (`resultAge`).
 */
import type { Season } from "./season";

/** Svensk Friidrott's competitions for children are for those 11 years and younger. */
export const CHILD_SAFE_MAX_AGE = 11;

/** What the public sees instead of a withheld runner's time. */
export const WITHHELD_TEXT = "Fullföljt";

/** Which runners' time and placing the public may see (the public view's input). */
export interface PublishingRules {
  /** Runners younger than this have their time and placing withheld; null publishes every result. */
  resultsHiddenBelowAge: number | null;
}

export const PUBLISH_ALL: PublishingRules = { resultsHiddenBelowAge: null };

/** The season's rules: with child-safe publishing on, results of runners 11 and under are withheld. */
export function publishingRules(season: Pick<Season, "childSafePublishing">): PublishingRules {
  return season.childSafePublishing ? { resultsHiddenBelowAge: CHILD_SAFE_MAX_AGE + 1 } : PUBLISH_ALL;
}

/** Whether a runner of this age (null: not known) has their time and placing published. */
export function publishesResult(age: number | null | undefined, rules: PublishingRules): boolean {
  if (rules.resultsHiddenBelowAge === null || age === null || age === undefined) return true;
  return age >= rules.resultsHiddenBelowAge;
}

/**
 * The oldest age an age class stands for, or null when the class names no age ('Dam', 'Herr', 'Motion' …).
 * Read: a letter for the class's sex (P, F, G, H, D, K, M, W, B) or a word (Pojkar, Flickor, Barn, Ungdom …)
 * followed by an age or a range ('P10', 'F 9', 'Flickor 10–11', 'P11-12', 'Barn 7-8 år'), and 'U12' (under 12:
 * 11). A range counts by its oldest age, so 'P11-12' is not a children's class under the 11-and-under rule.
 */
export function classAge(klass: string): number | null {
  const text = klass.trim().toLowerCase().replace(/\s+/g, " ");
  const under = /^u ?(\d{1,2})$/.exec(text);
  if (under) return Number(under[1]) - 1;
  const m =
    /^(?:[pfghdkmwb]|pojkar|flickor|pojke|flicka|barn|ungdom|knattar|knatte|juniorer|junior|herrar|damer|män|kvinnor)\s?(\d{1,2})(?:\s?(?:-|–|—|till)\s?(\d{1,2}))?(?: ?år)?$/.exec(
      text,
    );
  if (!m) return null;
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  if (last < first || last > 99) return null;
  return last;
}

/** The age a results line stands for: the age the file gives, else its age class's oldest age, else null. */
export function resultAge(line: { age?: number | null; klass: string }): number | null {
  if (line.age !== undefined && line.age !== null) return line.age;
  return classAge(line.klass);
}

/** A results line whose time and placing are published. */
export interface RankedLine<T> {
  line: T;
  place: number;
}

/**
 * Places among the published lines only: sorted by time, equal times sharing a place (1, 2, 2, 4), the withheld
 * lines after them, not ranked, by name. `timeMs` of a withheld line is never put in the answer's order, so the
 * order says nothing about it.
 */
export function rankPublished<T extends { timeMs: number; name: string }>(
  lines: readonly T[],
  published: (line: T) => boolean,
): { ranked: RankedLine<T>[]; withheld: T[] } {
  const shown = lines.filter(published).sort((a, b) => a.timeMs - b.timeMs);
  let place = 0;
  const ranked = shown.map((line, i) => {
    if (i === 0 || line.timeMs !== shown[i - 1]!.timeMs) place = i + 1;
    return { line, place };
  });
  const withheld = lines.filter((l) => !published(l)).sort((a, b) => a.name.localeCompare(b.name, "sv"));
  return { ranked, withheld };
}
