/**
 * The e2e project's global setup: checks for Debian's Chromium (its headless shell), then runs the real `npm start` path
 * (build into dist/, migrate, seed, wrangler dev) on a free port with a fresh state directory, with a test
 * CAMPAIGN_CODES secret (campaign-secret.ts), and a second server on the same build with a state of its own.
 * The browser files run two at a time (vitest.config.ts), each on the server of its vitest worker (`e2eBaseURL()`,
 * server-url.ts): two files running at once never share a server, so a file that counts the season's registrations
 * or results sees only what the files before it on its server left, as when they ran one after another.
 * Teardown stops both process groups. E2E_BASE_URL=http://localhost:8787 runs the tests against a server you
 * already started instead (one server: run them one file at a time with `--no-file-parallelism`;
 * client-bundle.test.ts then reads the dist/ that server was built into).
 */
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startLocalServer } from "../../scripts/lib/server.mjs";
import { TEST_CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";
import { E2E_CAMPAIGN_CODES } from "./campaign-secret";

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per vitest worker that runs browser files (E2E_SERVERS, 2 by default). */
    baseURLs: string[];
  }
}

const SERVERS = Math.max(1, Number(process.env.E2E_SERVERS ?? "2"));

export default async function setup(project: TestProject) {
  if (!existsSync(TEST_CHROMIUM_PATH)) {
    // One line, no stack: the reader needs the command, not our call chain.
    const error = new Error(
      'Chromium saknas: installera med "apt-get install -y chromium-headless-shell" (Debian) och kör igen.',
    );
    error.stack = error.message;
    throw error;
  }
  if (process.env.E2E_BASE_URL) {
    project.provide("baseURLs", [new URL(process.env.E2E_BASE_URL).origin]);
    return;
  }
  const options = {
    echo: process.env.E2E_SERVER_LOG === "1",
    env: { CAMPAIGN_CODES: JSON.stringify(E2E_CAMPAIGN_CODES) },
  };
  // The first builds dist/; the others serve that build, started side by side once it exists.
  const first = await startLocalServer(options);
  const others = await Promise.allSettled(
    Array.from({ length: SERVERS - 1 }, () => startLocalServer({ ...options, build: false })),
  );
  const servers = [first, ...others.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []))];
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => undefined);
  const failed = others.find((s) => s.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    "baseURLs",
    servers.map((s) => s.baseURL),
  );
  return stopAll;
}
