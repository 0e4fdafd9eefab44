/**
 * A long table (results, start lists: up to ~500 rows) that never blocks a slow phone. A <table> cannot do it:
 * every added row makes the browser lay out and repaint the whole table again, so even rendering it in chunks grows
 * into long tasks (measured: 100–200 ms per chunk at 4× CPU slowdown by the 500th row). Here the rows are ARIA table
 * rows in blocks of ROWS_PER_BLOCK; every row is a grid with the same column template, so the columns line up
 * without measuring each other, and each block has `content-visibility: auto`, so a block off screen costs neither
 * layout nor paint (it is still found by the page search and read by screen readers). The rows come in steps
 * (use-progressive-count.ts), and a block re-renders only when one of its rows changed (a live start list).
 *
 * - Filtering (`visibleKeys`, the search on the results and start lists): every row stays mounted and the ones
 *   left out get `hidden`, so a keystroke changes one attribute per row that comes or goes, never re-creates
 *   cells; a block with no row left is hidden whole. The block's size estimate follows its visible rows.
 * - Phones (`stack` on the columns, theme.css): below 56rem each row stacks: the `lead`, `main` and `end` cells on
 *   the first line (number, name, time), the `detail` cells on the next, under the name, and `detail-end` at its
 *   right. The header row is then read by screen readers only.
 */
import { memo, type CSSProperties, type ReactNode } from "react";
import { useProgressiveCount } from "../../lib/use-progressive-count";

/** Where a cell goes when a phone stacks the row (see above); without it the row is never stacked. */
export type StackPlace = "lead" | "main" | "end" | "detail" | "detail-end";

export interface GridColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Right-aligned tabular figures. */
  numeric?: boolean;
  /** The cell that names the row for a screen reader (the runner's name). */
  rowHeader?: boolean;
  className?: string;
  stack?: StackPlace;
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
  /** Only the rows with these keys show (a search); null or absent: every row. */
  visibleKeys?: ReadonlySet<string> | null;
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
  visibleKeys = null,
  className,
}: DataGridProps<Row>) {
  const shown = useProgressiveCount(rows.length, resetKey);
  const blocks: { rows: Row[]; mask: string | null }[] = [];
  for (let i = 0; i < shown; i += ROWS_PER_BLOCK) {
    const block = rows.slice(i, Math.min(i + ROWS_PER_BLOCK, shown));
    const mask = visibleKeys && block.map((row) => (visibleKeys.has(rowKey(row)) ? "1" : "0")).join("");
    blocks.push({ rows: block, mask });
  }
  const stacked = columns.some((c) => c.stack);
  return (
    <div
      className="table-scroll data-grid-box"
      tabIndex={0}
      role="region"
      aria-label={label}
      // Nothing left to show: the list says so above it, and an empty table's header would only be in the way.
      hidden={visibleKeys?.size === 0 || undefined}
    >
      <div
        role="table"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        className={["data-grid", stacked ? "stacked" : "", visibleKeys ? "is-filtered" : "", className]
          .filter(Boolean)
          .join(" ")}
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
            rows={block.rows}
            mask={block.mask}
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
  return ["data-grid-cell", c.numeric ? "num" : "", c.stack ? `stack-${c.stack}` : "", c.className ?? ""]
    .filter(Boolean)
    .join(" ");
}

/** A row's height as first guessed, before the browser has laid the block out once. */
const ROW_EM = 2.6;

interface BlockProps {
  first: number;
  rows: readonly object[];
  /** Per row '1' shown, '0' hidden; null when nothing is filtered. */
  mask: string | null;
  columns: readonly GridColumn<object>[];
  rowKey: (row: object) => string;
  rowClassName?: (row: object) => string | undefined;
}

const Block = memo(function Block({ first, rows, mask, columns, rowKey, rowClassName }: BlockProps) {
  const visible = mask === null ? rows.length : mask.split("1").length - 1;
  return (
    <div
      role="rowgroup"
      className="data-grid-block"
      hidden={visible === 0 || undefined}
      // Unfiltered, a block off screen keeps the height it was last laid out with ('auto'). Filtered, that would be
      // the height of rows now hidden, so it is guessed from the rows left until the block is on screen again.
      style={{ containIntrinsicBlockSize: mask === null ? `auto ${rows.length * ROW_EM}em` : `${visible * ROW_EM}em` }}
    >
      {rows.map((row, i) => (
        <GridRow
          key={rowKey(row)}
          index={first + i + 2}
          row={row}
          hidden={mask !== null && mask[i] === "0"}
          className={rowClassName?.(row)}
          columns={columns}
        />
      ))}
    </div>
  );
}, sameBlock);

interface GridRowProps {
  index: number;
  row: object;
  hidden: boolean;
  className: string | undefined;
  columns: readonly GridColumn<object>[];
}

/** One row; a search only flips its `hidden`, the cells (RowCells) are not rendered again for that. */
const GridRow = memo(
  function GridRow({ index, row, hidden, className, columns }: GridRowProps) {
    return (
      <div
        role="row"
        aria-rowindex={index}
        hidden={hidden || undefined}
        className={["data-grid-row", className ?? ""].filter(Boolean).join(" ")}
      >
        <RowCells row={row} columns={columns} />
      </div>
    );
  },
  (a, b) =>
    a.index === b.index &&
    a.hidden === b.hidden &&
    a.className === b.className &&
    a.columns === b.columns &&
    shallowEqual(a.row, b.row),
);

const RowCells = memo(
  function RowCells({ row, columns }: { row: object; columns: readonly GridColumn<object>[] }) {
    return columns.map((c) => (
      <div key={c.key} role={c.rowHeader ? "rowheader" : "cell"} className={cellClass(c)}>
        {c.cell(row)}
      </div>
    ));
  },
  (a, b) => a.columns === b.columns && shallowEqual(a.row, b.row),
);

/** Same rows with the same values (a live refresh makes new row objects for unchanged runners). */
function sameBlock(a: BlockProps, b: BlockProps): boolean {
  return (
    a.first === b.first &&
    a.mask === b.mask &&
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
