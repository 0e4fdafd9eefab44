/**
 * A results table (spec: Placering, Namn, Resultat, ±, Klass, Startnummer, Förening): a DataGrid, so 500 rows
 * never block a slow phone. On a narrow phone the first three columns fit and the rest scroll sideways in the box.
 */
import { DataGrid, type GridColumn } from "../../components/ui/data-grid";
import type { ResultLine } from "./result-rows";

const COLUMNS: readonly GridColumn<ResultLine>[] = [
  { key: "place", header: "Placering", cell: (l) => l.place, numeric: true },
  { key: "name", header: "Namn", cell: (l) => l.name, rowHeader: true, className: "name" },
  { key: "time", header: "Resultat", cell: (l) => l.time, numeric: true },
  { key: "diff", header: "±", cell: (l) => l.diff, numeric: true, className: "muted" },
  { key: "klass", header: "Klass", cell: (l) => l.klass },
  { key: "bib", header: "Startnummer", cell: (l) => l.bib, numeric: true },
  { key: "club", header: "Förening", cell: (l) => l.club, className: "club" },
];

/** Wide enough for each header and value; names and clubs share what is left and wrap. */
const TEMPLATE = "6.4em minmax(8em, 2fr) 6.8em 7.4em 4.6em 7.8em minmax(7em, 1.5fr)";

const lineKey = (l: ResultLine) => l.key;

export function ResultTable({ lines, caption }: { lines: readonly ResultLine[]; caption: string }) {
  return (
    <DataGrid
      label={caption}
      columns={COLUMNS}
      rows={lines}
      rowKey={lineKey}
      template={TEMPLATE}
      resetKey={lines}
      className="result-table"
    />
  );
}
