/**
 * What the Worker keeps in its isolate between requests: the copies of a race's public view and of a race for the
 * family pages, the rendered data pages, the known race ids, the verified session tokens. Each of those maps and sets
 * is made through `keptInIsolate`, so one call forgets them all.
 *
 * Production never forgets: an isolate's memory ends with the isolate, and every copy has its own age bound. The
 * workerd tests run many files in one runtime (vitest.config.ts), each from fresh bindings (D1, the Durable
 * Objects); their setup file calls `forgetIsolateMemory()` first, or a file would read another file's race from a
 * copy younger than its bound.
 */
const kept = new Set<{ clear(): void }>();

/** `memory` (a Map or Set the isolate keeps between requests), registered so `forgetIsolateMemory` clears it. */
export function keptInIsolate<T extends { clear(): void }>(memory: T): T {
  kept.add(memory);
  return memory;
}

/** Clears everything made through `keptInIsolate` (the workerd tests, between files). */
export function forgetIsolateMemory(): void {
  for (const memory of kept) memory.clear();
}
