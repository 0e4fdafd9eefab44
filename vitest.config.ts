import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { unstable_readConfig } from "wrangler";
import { DEV_SECRETS } from "./scripts/lib/settings.mjs";

/**
 * Browser files last: their servers start in the background while the Node and workerd files run
 * (test/e2e/global-setup.ts), so both cores work from the first second instead of waiting for the build.
 */
class BrowserFilesLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = (file: TestSpecification) => file.project.name === "e2e";
    return [...sorted.filter((file) => !browser(file)), ...sorted.filter(browser)];
  }
}

// Three layers, one command (`npm test`): pure rules in Node, Worker + Durable Objects on workerd with a
// migrated D1, and end-to-end in Debian Chromium against `npm start`'s server.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The deployed configuration's variables, as wrangler resolves [env.production] (test/worker/production.test.ts).
  const production = unstable_readConfig(
    { config: path.join(import.meta.dirname, "wrangler.toml"), env: "production" },
    { hideWarnings: true },
  );
  // The Worker and its Durable Objects on workerd with a migrated D1, as the worker and load projects run them.
  const workerd = () =>
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        // Pinned so a `.dev.vars` left by `npm run dev` (shifted clock, other port) can't leak into tests.
        bindings: {
          // wrangler.toml holds no secrets; the tests get development's, as `npm start` does.
          ...DEV_SECRETS,
          TEST_MIGRATIONS: migrations,
          TEST_PRODUCTION_VARS: JSON.stringify(production.vars),
          NOW: "",
          NOW_SET_AT: "",
          PUBLIC_ORIGIN: "http://localhost:8787",
          GOOGLE_JWKS_URL: "http://localhost:8787/dev/jwks.json",
          SWISH_BASE_URL: "http://localhost:8787/dev/swish/swish-cpcapi/api/",
        },
      },
    });
  return {
    test: {
      // The log shows what failed: a passing test's console output (the outbox's lines, the runtime's) is dropped.
      silent: "passed-only" as const,
      // One line per file with its time; a passing test gets its own line only past 10 s (the ones worth a look).
      slowTestThreshold: 10_000,
      // Vitest's default is one worker less than the cores: on a 2-core machine one file at a time for every project.
      // Two keep both cores busy: two files at a time from any project (two browser files never on one server).
      maxWorkers: 2,
      sequence: { sequencer: BrowserFilesLast },
      projects: [
        // Node: the shared rules, the SPA's own pure helpers, and the race room's rules on Node's built-in SQLite.
        {
          test: {
            name: "shared",
            include: ["test/shared/**/*.test.ts", "test/web/**/*.test.ts", "test/race-room/**/*.test.ts"],
            environment: "node",
            // The race room runs on Node's built-in SQLite, which warns that it is experimental in every file.
            execArgv: ["--disable-warning=ExperimentalWarning"],
          },
        },
        {
          plugins: [workerd()],
          test: {
            name: "worker",
            // One workerd per vitest worker for all its files (a runtime per file took twice the CPU); each file starts
            // from nothing all the same: the setup file forgets the Worker's in-memory copies, resets every binding and
            // migrates D1 (test/worker/apply-migrations.ts).
            isolate: false,
            include: ["test/worker/**/*.test.ts", "test/durable/**/*.test.ts"],
            // Whole races and 20-payment histories take seconds on a busy 2-core machine: a timeout is not a verdict.
            testTimeout: 20_000,
            setupFiles: ["./test/worker/apply-migrations.ts"],
          },
        },
        {
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            // One Node process per lane for all its files, playwright-core loaded once: each file launches and
            // closes its own browser and contexts.
            isolate: false,
            globalSetup: ["./test/e2e/global-setup.ts"],
            // Waits for the file's server, which the global setup starts in the background.
            setupFiles: ["./test/e2e/server-ready.ts"],
            testTimeout: 60_000,
            hookTimeout: 180_000,
            // A page's list arriving after a fetch takes over a second when the machine is busy (CI shares two
            // cores with the server): expect.poll's 1 s default failed a start-list test that way. Waiting is not a
            // verdict; each poll still ends at its first success.
            expect: { poll: { timeout: 15_000 } },
            // Two files at a time, each on the server of its vitest worker (global-setup.ts, server-url.ts).
          },
        },
        // Load tests, run by hand (`npm run bench spectators-crowd`), never by `npm test`: only with BENCH_LOAD=1.
        ...(process.env.BENCH_LOAD === "1"
          ? [
              {
                plugins: [workerd()],
                test: {
                  name: "load",
                  include: ["bench/load/**/*.test.ts"],
                  testTimeout: 300_000,
                  setupFiles: ["./test/worker/apply-migrations.ts"],
                },
              },
            ]
          : []),
      ],
    },
  };
});
