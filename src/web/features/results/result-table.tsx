/**
 * A results table (spec: Placering, Namn, Resultat, ±, Klass, Startnummer, Förening): a DataGrid, so 500 rows
 * never block a slow phone. On a wide screen every column is a column; on a phone each runner is two lines
 * (placing, name and time; then class, bib and club, with ± at the right), so nothing scrolls sideways.
 */
import { DataGrid, type GridColumn } from "../../components/ui/data-grid";
import type { ResultLine } from "./result-rows";

const COLUMNS: readonly GridColumn<ResultLine>[] = [
  { key: "place", header: "Placering", cell: (l) => l.place, numeric: true, stack: "lead" },
  { key: "name", header: "Namn", cell: (l) => l.name, rowHeader: true, className: "name", stack: "main" },
  { key: "time", header: "Resultat", cell: (l) => l.time, numeric: true, className: "time", stack: "end" },
  { key: "diff", header: "±", cell: (l) => l.diff, numeric: true, className: "muted diff", stack: "detail-end" },
  { key: "klass", header: "Klass", cell: (l) => l.klass, className: "klass", stack: "detail" },
  { key: "bib", header: "Startnummer", cell: (l) => l.bib, numeric: true, className: "bib", stack: "detail" },
  { key: "club", header: "Förening", cell: (l) => l.club, className: "club", stack: "detail" },
];

/** Wide enough for each header and value; names and clubs share what is left and wrap between words. */
const TEMPLATE = "6.4em minmax(8em, 2fr) 6.8em 7.4em 4.6em 7.8em minmax(7em, 1.5fr)";

const lineKey = (l: ResultLine) => l.key;

export function ResultTable({
  lines,
  caption,
  visibleKeys,
}: {
  lines: readonly ResultLine[];
  caption: string;
  /** The lines a search leaves (their keys); null: all. */
  visibleKeys: ReadonlySet<string> | null;
}) {
  return (
    <DataGrid
      label={caption}
      columns={COLUMNS}
      rows={lines}
      rowKey={lineKey}
      template={TEMPLATE}
      resetKey={lines}
      visibleKeys={visibleKeys}
      className="result-table"
    />
  );
}
