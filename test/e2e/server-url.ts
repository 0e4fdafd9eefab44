/**
 * The server a browser file talks to. The global setup starts one server per vitest worker that runs browser files
 * (global-setup.ts) and vitest numbers its running workers 1..maxWorkers (VITEST_POOL_ID), never two running files
 * with the same number: so two files running at once never share a server's season, and a file that counts what the
 * season holds sees only what earlier files on its own server left.
 */
import { inject } from "vitest";

export function e2eBaseURL(): string {
  const urls = inject("baseURLs");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  return urls[(worker - 1) % urls.length]!;
}
