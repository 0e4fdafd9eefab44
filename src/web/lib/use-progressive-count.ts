/**
 * How many rows of a long table to render now. A 500-row table in one go is one long task on a slow phone
 * (thousands of cells rendered, committed and laid out at once); instead the first rows come at once and the rest
 * follow in chunks, each as a transition in its own macrotask, so the browser paints and answers input in between
 * (issue: "A 500-row results table must not block the main thread"). Starts over when `resetKey` changes (another
 * table); a live update of the same table keeps what is shown.
 */
import { startTransition, useEffect, useState } from "react";

export const FIRST_ROWS = 25;
export const ROWS_PER_STEP = 50;

export function useProgressiveCount(total: number, resetKey: unknown, first = FIRST_ROWS, step = ROWS_PER_STEP) {
  const [shown, setShown] = useState({ key: resetKey, count: first });
  if (shown.key !== resetKey) {
    // Adjusting state while rendering (React's documented pattern), so the new table never flashes in full.
    setShown({ key: resetKey, count: first });
  }
  const count = shown.key === resetKey ? shown.count : first;

  useEffect(() => {
    if (count >= total) return;
    const timer = setTimeout(() => {
      startTransition(() => setShown((s) => ({ ...s, count: s.count + step })));
    }, 0);
    return () => clearTimeout(timer);
  }, [count, total, step]);

  return Math.min(count, total);
}
