/**
 * 'Sök löpare' on /resultat, /resultat/{year} and /startlistor: one field per page (RunnerSearchField) that filters
 * every list under it (useRunnerFilter) as the visitor types. The rules are runner-filter.ts.
 *
 * - The page wraps its content in <RunnerSearch>; the field writes the query there and each list reads it. A
 *   keystroke filters at once, in the same render: comparing 500 folded rows and flipping `hidden` on the rows
 *   that come or go (components/ui/data-grid.tsx) is far cheaper than a frame, so the list and the field change
 *   together (`npm run bench runner-search`).
 * - The query belongs to the page it is typed on: not stored, not shared with another tab or visit. A list that
 *   refreshes itself while a search is on (a running race, every 5 s) is filtered again as it comes: a runner who
 *   joins shows if they match, and a finish that reorders the list keeps the same runners shown.
 * - The field is uncontrolled, so what is typed before the script has started (the field is in the pre-rendered
 *   HTML) is kept and applied when it does. It sits in a GET form: Enter then closes the phone's keyboard, and
 *   before the script runs, reloads the page with `?sok=…`, which fills the field in again.
 */
import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { matchingKeys, searchIndex, searchSummary, type SearchFields } from "./runner-filter";

const QueryContext = createContext("");
const SetQueryContext = createContext<(query: string) => void>(() => {});

/** The address parameter that fills the field in (`/resultat?sok=anna`). */
export const QUERY_PARAM = "sok";

export function RunnerSearch({ children }: { children: ReactNode }) {
  const [query, setQuery] = useState("");
  return (
    <SetQueryContext.Provider value={setQuery}>
      <QueryContext.Provider value={query}>{children}</QueryContext.Provider>
    </SetQueryContext.Provider>
  );
}

export function RunnerSearchField({ hint }: { hint?: string }) {
  const setQuery = useContext(SetQueryContext);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    const field = input.current;
    if (!field) return;
    const initial = field.value || new URLSearchParams(window.location.search).get(QUERY_PARAM) || "";
    if (!initial) return;
    field.value = initial;
    setQuery(initial);
  }, [setQuery]);

  return (
    <form
      role="search"
      className="runner-search"
      onSubmit={(e) => {
        e.preventDefault();
        input.current?.blur();
      }}
    >
      <label htmlFor={id} className="field-label">
        Sök löpare
      </label>
      <input
        ref={input}
        id={id}
        type="search"
        name={QUERY_PARAM}
        placeholder="Namn, förening eller startnummer"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        enterKeyHint="search"
        aria-describedby={hint ? `${id}-tips` : undefined}
        onChange={(e) => setQuery(e.currentTarget.value)}
      />
      {hint && (
        <p id={`${id}-tips`} className="field-hint">
          {hint}
        </p>
      )}
    </form>
  );
}

/** The query the lists filter by ('' for none). */
export function useRunnerQuery(): string {
  return useContext(QueryContext);
}

/**
 * One list's search: the keys of its rows that match (null: no search, all show) and what the list says about it
 * (null without a search). The rows are folded once per list, not per keystroke.
 */
export function useRunnerFilter<Row>(
  rows: readonly Row[],
  key: (row: Row) => string,
  fields: (row: Row) => SearchFields,
  noun?: string,
): { visibleKeys: Set<string> | null; summary: string | null } {
  const query = useRunnerQuery();
  const index = useMemo(() => searchIndex(rows, key, fields), [rows, key, fields]);
  const visibleKeys = useMemo(() => matchingKeys(index, query), [index, query]);
  return { visibleKeys, summary: searchSummary(query, visibleKeys?.size ?? rows.length, rows.length, noun) };
}
