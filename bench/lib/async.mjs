/** Waiting and bounded parallel work, for the benchmarks' set-up phases. */

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `work(0)` … `work(count - 1)`, at most `parallel` at a time. */
export async function inParallel(count, parallel, work) {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}
