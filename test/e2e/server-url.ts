/**
 * The server a browser file talks to. The global setup starts one server per vitest worker that runs browser files
 * (global-setup.ts) and vitest numbers its running workers 1..maxWorkers (VITEST_POOL_ID), never two running files
 * with the same number: so two files running at once never share a server's season, and a file that counts what the
 * season holds sees only what earlier files on its own server left.
 */
import { inject } from "vitest";

/** This vitest worker's place among the servers. */
function lane(count: number): number {
  return (Number(process.env.VITEST_POOL_ID ?? "1") - 1) % count;
}

export function e2eBaseURL(): string {
  const urls = inject("baseURLs");
  return urls[lane(urls.length)]!;
}

/**
 * The copy of the build that this file's server serves (global-setup.ts): a file that changes it deploys onto its
 * server, which reloads (offline-deploy.test.ts), and puts it back when done. "" with E2E_BASE_URL.
 */
export function e2eDistDir(): string {
  const dirs = inject("distDirs");
  return dirs[lane(dirs.length)]!;
}
