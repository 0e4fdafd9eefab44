/**
 * A long table (results, start lists: up to ~500 rows) that never blocks a slow phone. A <table> cannot do it:
 * every added row makes the browser lay out and repaint the whole table again, so even rendering it in chunks grows
 * into long tasks (measured: 100–200 ms per chunk at 4× CPU slowdown by the 500th row). Here the rows are ARIA table
 * rows in blocks of ROWS_PER_BLOCK; every row is a grid with the same column template, so the columns line up
 * without measuring each other, and each block has `content-visibility: auto`, so a block off screen costs neither
 * layout nor paint (it is still found by the page search and read by screen readers). The rows come in steps
 * (use-progressive-count.ts), and a block re-renders only when one of its rows changed (a live start list).
 */
import { memo, type CSSProperties, type ReactNode } from "react";
import { useProgressiveCount } from "../../lib/use-progressive-count";

export interface GridColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Right-aligned tabular figures. */
  numeric?: boolean;
  /** The cell that names the row for a screen reader (the runner's name). */
  rowHeader?: boolean;
  className?: string;
}

export interface DataGridProps<Row extends object> {
  label: string;
  columns: readonly GridColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowClassName?: (row: Row) => string | undefined;
  /** The CSS grid-template-columns of every row. */
  template: string;
  /** A new table (another race, another year) starts its steps over; the same table updated does not. */
  resetKey: unknown;
  className?: string;
}

export const ROWS_PER_BLOCK = 50;

export function DataGrid<Row extends object>({
  label,
  columns,
  rows,
  rowKey,
  rowClassName,
  template,
  resetKey,
  className,
}: DataGridProps<Row>) {
  const shown = useProgressiveCount(rows.length, resetKey);
  const blocks: Row[][] = [];
  for (let i = 0; i < shown; i += ROWS_PER_BLOCK) blocks.push(rows.slice(i, Math.min(i + ROWS_PER_BLOCK, shown)));
  return (
    <div className="table-scroll data-grid-box" tabIndex={0} role="region" aria-label={label}>
      <div
        role="table"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        className={["data-grid", className].filter(Boolean).join(" ")}
        style={{ "--grid-columns": template } as CSSProperties}
      >
        <div role="rowgroup" className="data-grid-head">
          <div role="row" className="data-grid-row" aria-rowindex={1}>
            {columns.map((c) => (
              <div key={c.key} role="columnheader" className={cellClass(c)}>
                {c.header}
              </div>
            ))}
          </div>
        </div>
        {blocks.map((block, i) => (
          <Block
            key={i}
            first={i * ROWS_PER_BLOCK}
            rows={block}
            columns={columns as readonly GridColumn<object>[]}
            rowKey={rowKey as (row: object) => string}
            rowClassName={rowClassName as ((row: object) => string | undefined) | undefined}
          />
        ))}
      </div>
    </div>
  );
}

function cellClass(c: GridColumn<never>): string {
  return ["data-grid-cell", c.numeric ? "num" : "", c.className ?? ""].filter(Boolean).join(" ");
}

interface BlockProps {
  first: number;
  rows: readonly object[];
  columns: readonly GridColumn<object>[];
  rowKey: (row: object) => string;
  rowClassName?: (row: object) => string | undefined;
}

const Block = memo(function Block({ first, rows, columns, rowKey, rowClassName }: BlockProps) {
  return (
    <div
      role="rowgroup"
      className="data-grid-block"
      style={{ containIntrinsicBlockSize: `auto ${rows.length * 2.6}em` }}
    >
      {rows.map((row, i) => (
        <div
          key={rowKey(row)}
          role="row"
          aria-rowindex={first + i + 2}
          className={["data-grid-row", rowClassName?.(row) ?? ""].filter(Boolean).join(" ")}
        >
          {columns.map((c) => (
            <div key={c.key} role={c.rowHeader ? "rowheader" : "cell"} className={cellClass(c)}>
              {c.cell(row)}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}, sameBlock);

/** Same rows with the same values (a live refresh makes new row objects for unchanged runners). */
function sameBlock(a: BlockProps, b: BlockProps): boolean {
  return (
    a.first === b.first &&
    a.columns === b.columns &&
    a.rowKey === b.rowKey &&
    a.rowClassName === b.rowClassName &&
    a.rows.length === b.rows.length &&
    a.rows.every((row, i) => shallowEqual(row, b.rows[i]!))
  );
}

function shallowEqual(a: object, b: object): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof typeof a)[];
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}
