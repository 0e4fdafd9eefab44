/**
 * The e2e project's global setup: checks for Debian's Chromium, then runs the real `npm start` path
 * (build into dist/, migrate, seed, wrangler dev) on a free port with a fresh state directory, with a test
 * CAMPAIGN_CODES secret (campaign-secret.ts), and hands the tests its URL through `inject("baseURL")`. Teardown
 * stops the whole process group. E2E_BASE_URL=http://localhost:8787 runs the tests against a server you already
 * started instead (client-bundle.test.ts then reads the dist/ that server was built into).
 */
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startLocalServer } from "../../scripts/lib/server.mjs";
import { CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";
import { E2E_CAMPAIGN_CODES } from "./campaign-secret";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    // One line, no stack: the reader needs the command, not our call chain.
    const error = new Error('Chromium saknas: installera med "apt-get install -y chromium" (Debian) och kör igen.');
    error.stack = error.message;
    throw error;
  }
  if (process.env.E2E_BASE_URL) {
    project.provide("baseURL", new URL(process.env.E2E_BASE_URL).origin);
    return;
  }
  const server = await startLocalServer({
    echo: process.env.E2E_SERVER_LOG === "1",
    env: { CAMPAIGN_CODES: JSON.stringify(E2E_CAMPAIGN_CODES) },
  });
  project.provide("baseURL", server.baseURL);
  return () => server.stop();
}
