/**
 * The e2e project's global setup: checks for Debian's Chromium (its headless shell), builds the site once with `npm
 * start`'s own build step (scripts/lib/build.mjs), then runs the real `npm start` path on that build
 * (scripts/start.mjs with DIST_DIR: migrate, seed, wrangler dev) on free ports with fresh state directories, with a test CAMPAIGN_CODES secret (campaign-secret.ts): one server per
 * vitest worker (E2E_SERVERS, 2 by default), each serving its own copy of the build (`e2eDistDir()`; a file may
 * deploy onto its server by changing that copy, which wrangler dev reloads: offline-deploy.test.ts). The browser
 * files run two at a time (vitest.config.ts), each on the server of its vitest worker (`e2eBaseURL()`,
 * server-url.ts): two files running at once never share a server, so a file that counts the season's registrations
 * or results sees only what the files before it on its server left, as when they ran one after another.
 *
 * The servers start in the background: vitest runs every project's global setup before any test file, so a setup
 * that waited for the build and the servers (about 50 s) held the Node and workerd files back too. The ports are
 * chosen here and handed to the files at once; the sequencer (vitest.config.ts) runs the browser files last, and
 * each waits for its server in server-ready.ts, which fails with the build's or the server's own output should it
 * not come up (written to the `serverFailure` file). Teardown waits for the start and stops every process group.
 * E2E_BASE_URL=http://localhost:8787 runs the tests against a server you already started instead (one server: run
 * them one file at a time with `--no-file-parallelism`; client-bundle.test.ts then reads the dist/ that server was
 * built into).
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildSite } from "../../scripts/lib/build.mjs";
import { ROOT } from "../../scripts/lib/proc.mjs";
import { freePortForLater, startLocalServer } from "../../scripts/lib/server.mjs";
import { TEST_CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";
import { E2E_CAMPAIGN_CODES } from "./campaign-secret";

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per vitest worker that runs browser files (E2E_SERVERS, 2 by default). */
    baseURLs: string[];
    /** The copy of the build each of those servers serves, by the same index ("" with E2E_BASE_URL). */
    distDirs: string[];
    /** A file that holds why the servers did not start, once they have failed ("" with E2E_BASE_URL). */
    serverFailure: string;
  }
}

const SERVERS = Math.max(1, Number(process.env.E2E_SERVERS ?? "2"));

type Server = Awaited<ReturnType<typeof startLocalServer>>;

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
    project.provide("distDirs", [""]);
    project.provide("serverFailure", "");
    return;
  }
  const options = {
    echo: process.env.E2E_SERVER_LOG === "1",
    env: { CAMPAIGN_CODES: JSON.stringify(E2E_CAMPAIGN_CODES) },
  };
  const ports: number[] = [];
  while (ports.length < SERVERS) {
    const port = await freePortForLater();
    if (!ports.includes(port)) ports.push(port);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "loppet-e2e-"));
  const failure = path.join(dir, "server-failure.txt");
  const distDirs = ports.map((_, i) => path.join(dir, `dist-${i + 1}`));
  project.provide(
    "baseURLs",
    ports.map((port) => `http://localhost:${port}`),
  );
  project.provide("distDirs", distDirs);
  project.provide("serverFailure", failure);

  const servers: Server[] = [];
  // The build into dist/, then each server on a copy of it. A failure is written where the files look
  // (server-ready.ts), never thrown here: nothing awaits this until teardown.
  const starting = (async () => {
    let buildOutput = "";
    const building = buildSite({ env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [building.child.stdout, building.child.stderr])
      stream?.on("data", (chunk: Buffer) => {
        buildOutput = (buildOutput + chunk.toString()).slice(-12_000);
        if (options.echo) process.stderr.write(chunk);
      });
    await building.catch((err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${buildOutput}`);
    });
    // One after another: two wrangler dev processes starting at the same moment can pick the same free port for
    // their runtime's own sockets, and the second then fails with 'Address already in use' (seen in a CI run).
    for (const [i, port] of ports.entries()) {
      cpSync(path.join(ROOT, "dist"), distDirs[i]!, { recursive: true });
      servers.push(await startLocalServer({ ...options, port, distDir: distDirs[i] }));
    }
  })().catch((err: unknown) => writeFileSync(failure, err instanceof Error ? err.message : String(err)));

  return async () => {
    await starting;
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
}
