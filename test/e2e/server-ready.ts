/**
 * Each browser file's first step (the e2e project's setup file): waits until its server answers, since the global
 * setup starts the servers in the background (global-setup.ts). Should the start fail, the file fails with the
 * server's own output instead of every test timing out.
 */
import { existsSync, readFileSync } from "node:fs";
import { inject } from "vitest";
import { e2eBaseURL } from "./server-url";

/** The build and both servers on a busy 2-core machine: well under this. */
const READY_WITHIN_MS = 240_000;

async function serverReady(): Promise<void> {
  const failure = inject("serverFailure");
  const url = `${e2eBaseURL()}/api/config`;
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (failure && existsSync(failure)) throw new Error(`Testservern startade inte:\n${readFileSync(failure, "utf8")}`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`Testservern ${e2eBaseURL()} svarade inte inom ${READY_WITHIN_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

await serverReady();
