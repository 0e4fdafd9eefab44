/**
 * A long table (results, start lists: up to ~500 rows) that never blocks a slow phone. A <table> cannot do it:
 * every added row makes the browser lay out and repaint the whole table again, so even rendering it in chunks grows
 * into long tasks (measured: 100–200 ms per chunk at 4× CPU slowdown by the 500th row). Here the rows are ARIA table
 * rows in blocks of ROWS_PER_BLOCK; every row is a grid with the same column template, so the columns line up
 * without measuring each other, and each block has `content-visibility: auto`, so a block off screen costs neither
 * layout nor paint (it is still found by the page search and read by screen readers). The rows come in steps
 * (use-progressive-count.ts), and a block re-renders only when one of its rows changed (a live start list).
 *
 * - Filtering (`visibleKeys`, the search on the results and start lists): the rows a search leaves out get `hidden`,
 *   set on the rendered rows by a layout effect (before the browser paints) rather than rendered by React: a
 *   keystroke that hides 400 of 500 rows then changes 400 attributes and renders no row again (rendering them took
 *   a slow phone longer than a frame). A block with no row left is hidden whole, and its size estimate off screen
 *   follows the rows it still shows.
 * - Phones (`stack` on the columns, theme.css): below 56rem each row stacks: the `lead`, `main` and `end` cells on
 *   the first line (number, name, time), the `detail` cells on the next, under the name, and `detail-end` at its
 *   right. The header row is then read by screen readers only.
 */
import { memo, useLayoutEffect, useRef, type CSSProperties, type ReactNode } from "react";
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

/**
 * Small blocks: a search that brings rows back lays out only the blocks near the screen, so the fewer rows a
 * block holds, the less a keystroke lays out beyond what is seen (10 rather than 25 or 50: less layout per such
 * keystroke in bench/runner-search.mjs, and no change beyond the machine's noise in bench/results-table.mjs).
 */
export const ROWS_PER_BLOCK = 10;

export function DataGrid<Row extends object>({
  label,
  columns,
  rows,
  rowKey,
  rowClassName,
  template,
  resetKey,
  visibleKeys: asked = null,
  className,
}: DataGridProps<Row>) {
  // A search every row matches (the first letters typed) leaves the table as it is: nothing to hide or restyle.
  const visibleKeys = asked && asked.size < rows.length ? asked : null;
  const shown = useProgressiveCount(rows.length, resetKey);
  const blocks: Row[][] = [];
  for (let i = 0; i < shown; i += ROWS_PER_BLOCK) blocks.push(rows.slice(i, Math.min(i + ROWS_PER_BLOCK, shown)));
  const table = useRef<HTMLDivElement>(null);

  // After every commit that can change which rows are rendered or shown: the rendered rows are in `rows` order.
  useLayoutEffect(() => {
    if (table.current) showRows(table.current, rows, rowKey, visibleKeys);
  }, [rows, rowKey, visibleKeys, shown]);

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
        ref={table}
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

/** A row's height as first guessed, before the browser has laid its block out once. */
const ROW_EM = 2.6;

/**
 * Shows the rendered rows whose key is in `visibleKeys` (all when null) and hides the others, each block with the
 * size estimate of what it shows: unfiltered, a block off screen keeps the height it was last laid out with
 * ('auto'); filtered, that would be the height of rows now hidden, so it is guessed from the rows left.
 */
function showRows<Row>(
  table: HTMLElement,
  rows: readonly Row[],
  rowKey: (row: Row) => string,
  visibleKeys: ReadonlySet<string> | null,
) {
  const blocks = table.querySelectorAll<HTMLElement>(":scope > .data-grid-block");
  blocks.forEach((block, b) => {
    let visible = 0;
    const rowElements = block.children;
    for (let i = 0; i < rowElements.length; i++) {
      const row = rows[b * ROWS_PER_BLOCK + i];
      const show = !visibleKeys || (row !== undefined && visibleKeys.has(rowKey(row)));
      if (show) visible++;
      const element = rowElements[i] as HTMLElement;
      if (element.hidden === show) element.hidden = !show;
    }
    if (block.hidden !== (visible === 0)) block.hidden = visible === 0;
    const size = visibleKeys ? `${visible * ROW_EM}em` : `auto ${rowElements.length * ROW_EM}em`;
    if (block.style.containIntrinsicBlockSize !== size) block.style.containIntrinsicBlockSize = size;
  });
}

function cellClass(c: GridColumn<never>): string {
  return ["data-grid-cell", c.numeric ? "num" : "", c.stack ? `stack-${c.stack}` : "", c.className ?? ""]
    .filter(Boolean)
    .join(" ");
}

interface BlockProps {
  first: number;
  rows: readonly object[];
  columns: readonly GridColumn<object>[];
  rowKey: (row: object) => string;
  rowClassName?: (row: object) => string | undefined;
}

// `hidden` and the size estimate (contain-intrinsic-block-size) of blocks and rows are showRows's, never React's.
const Block = memo(function Block({ first, rows, columns, rowKey, rowClassName }: BlockProps) {
  return (
    <div role="rowgroup" className="data-grid-block">
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
