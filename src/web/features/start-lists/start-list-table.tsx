/**
 * One race's start list (spec: BIB, Namn, Klass, Förening, plus Resultat once the race is started or ended).
 * While the race runs the list refreshes itself (api/get-public-race.ts) and says when it last did. The page's
 * 'Sök löpare' filters it. On a phone each runner is two lines: number, name (and result), then class and club.
 */
import { useDeferredValue, useMemo } from "react";
import { DataGrid, type GridColumn } from "../../components/ui/data-grid";
import { LoadState } from "../../components/ui/load-state";
import { useRunnerFilter } from "../../components/runner-search/runner-search";
import { usePublicRace } from "./api/get-public-race";
import { usePublicCompanions } from "./api/get-public-companions";
import { clockText, companionRows, companionsText, raceTabLabel, startListView, type StartListRow } from "./start-list";
import { resultsStatusText } from "../../lib/results-status";

export function StartList({ part }: { part: string }) {
  const query = usePublicRace(part);
  // Every refresh renders as a transition (short tasks): a long live list never blocks the phone.
  const data = useDeferredValue(query.data);
  const view = useMemo(() => (data ? startListView(data) : undefined), [data]);
  // Adults running with a child (shared/companion.ts): listed after the runners as 'Med barn', never counted.
  const companionList = usePublicCompanions(part).data?.companions;
  const companions = useMemo(() => companionRows(companionList ?? []), [companionList]);
  const allRows = useMemo(() => (view ? [...view.rows, ...companions] : NO_ROWS), [view, companions]);
  const search = useRunnerFilter(allRows, rowKey, rowFields);
  if (!view) return <LoadState query={query} loading="Hämtar startlistan …" />;

  const { race, rows, withResults } = view;
  const caption = `Startlista ${race.date.slice(0, 4)}, ${raceTabLabel(race.distance)}`;
  const finished = rows.filter((r) => r.finished).length;
  return (
    <div className="start-list">
      <p className="race-status">
        {race.state === "started" ? (
          <>
            <span className="live-dot" aria-hidden="true" /> Loppet pågår – {finished} av {rows.length} i mål. Listan
            uppdateras av sig själv
            {query.dataUpdatedAt > 0 && <> (senast {clockText(query.dataUpdatedAt)})</>}.
          </>
        ) : race.state === "ended" ? (
          <>Loppet är avslutat – {finished} i mål.</>
        ) : (
          <>{rows.length === 1 ? "1 löpare anmäld." : `${rows.length} löpare anmälda.`}</>
        )}
        {withResults && resultsStatusText(race) && <> {resultsStatusText(race)}</>}
        {companions.length > 0 && <> {companionsText(companions.length)}</>}
      </p>
      {query.isError && <LoadState query={query} loading="" />}
      {allRows.length === 0 ? (
        <p className="start-list-empty">Inga löpare anmälda på distansen</p>
      ) : (
        <>
          {/* Always there (empty without a search), so a screen reader hears each new count. */}
          <p className="search-status" role="status">
            {search.summary}
          </p>
          <StartListTable
            rows={allRows}
            withResults={withResults}
            caption={caption}
            resetKey={part}
            visibleKeys={search.visibleKeys}
          />
        </>
      )}
    </div>
  );
}

const COLUMNS: readonly GridColumn<StartListRow>[] = [
  { key: "bib", header: "BIB", cell: (r) => r.bib, numeric: true, className: "bib", stack: "lead" },
  { key: "name", header: "Namn", cell: (r) => r.name, rowHeader: true, className: "name", stack: "main" },
  { key: "klass", header: "Klass", cell: (r) => r.klass, className: "klass", stack: "detail" },
  { key: "club", header: "Förening", cell: (r) => r.club, className: "club", stack: "detail" },
];
const RESULT: GridColumn<StartListRow> = {
  key: "result",
  header: "Resultat",
  cell: (r) => r.result,
  numeric: true,
  className: "result",
  stack: "end",
};
const COLUMNS_WITH_RESULT = [...COLUMNS, RESULT];

const TEMPLATE = "4.2em minmax(8em, 2fr) 4.6em minmax(6em, 1.5fr)";
const TEMPLATE_WITH_RESULT = `${TEMPLATE} 6.8em`;

const NO_ROWS: StartListRow[] = [];
const rowKey = (r: StartListRow) => r.key;
const rowFields = (r: StartListRow) => ({ name: r.name, club: r.club, bib: r.bib });
const rowClassName = (r: StartListRow) =>
  r.companion ? "is-companion" : r.dns ? "is-dns" : r.finished ? "is-finished" : undefined;

function StartListTable({
  rows,
  withResults,
  caption,
  resetKey,
  visibleKeys,
}: {
  rows: readonly StartListRow[];
  withResults: boolean;
  caption: string;
  resetKey: string;
  visibleKeys: ReadonlySet<string> | null;
}) {
  return (
    <DataGrid
      label={caption}
      columns={withResults ? COLUMNS_WITH_RESULT : COLUMNS}
      rows={rows}
      rowKey={rowKey}
      rowClassName={rowClassName}
      template={withResults ? TEMPLATE_WITH_RESULT : TEMPLATE}
      resetKey={resetKey}
      visibleKeys={visibleKeys}
      className={withResults ? "start-list-table with-results" : "start-list-table"}
    />
  );
}
