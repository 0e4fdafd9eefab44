/**
 * The site's production build, as `npm start` makes it (`npm run build`: vite build, prerender, service workers,
 * into dist/). The browser tests' global setup builds with it once and serves copies (test/e2e/global-setup.ts).
 */
import { run, toolEnv } from "./proc.mjs";

/**
 * Always React's production build: a caller's NODE_ENV (vitest sets "test") would otherwise leak into it. `env` adds
 * variables; `stdio` as for spawn (inherited by default). Resolves when the build has succeeded.
 * @param {{ env?: Record<string, string>, stdio?: import("node:child_process").StdioOptions }} [options]
 */
export function buildSite({ env = {}, stdio = "inherit" } = {}) {
  return run("npm", ["run", "build"], { stdio, env: toolEnv({ ...env, NODE_ENV: "production" }) });
}
