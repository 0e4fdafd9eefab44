/**
 * The local server's settings, shared by `npm start`, the e2e harness and the benchmarks: where its state
 * lives, which port, where its clock starts, and the Worker variables that follow from those.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./proc.mjs";

export const DEFAULT_PORT = 8787;

/** Registration open, early price tier: the demo season is live (DESIGN.md, "Development affordances"). */
export const DEFAULT_NOW = "2025-08-25T10:00:00+02:00";

export const DEFAULT_STATE_DIR = path.join(ROOT, ".wrangler", "state");

/** wrangler.toml's local URLs name this origin; they move with the port actually used. */
const CONFIGURED_ORIGIN = `http://localhost:${DEFAULT_PORT}`;

/**
 * Development's switches, Worker variables a local server takes from the environment (they are not in wrangler.toml,
 * and the deployed Worker ignores them): CHILD_SAFE_PUBLISHING ("true" or "false") sets the season's child-safe
 * publishing for this server without another build (src/shared/dev-season.ts).
 */
export const DEV_SWITCHES = ["CHILD_SAFE_PUBLISHING"];

/**
 * Reads PORT, STATE_DIR, NOW and the DEV_SWITCHES from the environment; a bad value stops the start with a Swedish
 * message.
 */
export function settingsFromEnv(env = process.env) {
  const port = env.PORT ? Number(env.PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Ogiltig PORT: ${env.PORT}`);
  const now = env.NOW || DEFAULT_NOW;
  if (Number.isNaN(Date.parse(now))) throw new Error(`Ogiltig NOW (ange ISO-tid, t.ex. ${DEFAULT_NOW}): ${now}`);
  const stateDir = env.STATE_DIR ? path.resolve(env.STATE_DIR) : DEFAULT_STATE_DIR;
  for (const key of DEV_SWITCHES) {
    if (env[key] !== undefined && env[key] !== "true" && env[key] !== "false") {
      throw new Error(`Ogiltig ${key} (ange true eller false): ${env[key]}`);
    }
  }
  return { port, now, stateDir, origin: `http://localhost:${port}` };
}

/** The top-level [vars] of wrangler.toml (flat `KEY = "value"` lines, which is all that table holds). */
export function configuredVars(configPath = path.join(ROOT, "wrangler.toml")) {
  const vars = {};
  let inVars = false;
  for (const line of readFileSync(configPath, "utf8").split("\n")) {
    const table = line.match(/^\s*\[+\s*([^\]]+?)\s*\]+/);
    if (table) {
      inVars = table[1] === "vars";
      continue;
    }
    const pair = inVars && line.match(/^\s*([A-Z0-9_]+)\s*=\s*"((?:[^"\\]|\\.)*)"/);
    if (pair) vars[pair[1]] = pair[2];
  }
  return vars;
}

/** Variables the server sets itself: NOW is read by settingsFromEnv (the clock's start), NOW_SET_AT follows it. */
const OWN_VARS = new Set(["NOW", "NOW_SET_AT"]);

/**
 * Secrets a local server takes from the environment as well (they are not in wrangler.toml): CAMPAIGN_CODES, to try
 * the production campaign codes' JSON locally before `wrangler secret put` (development adds them to its demo codes).
 */
export const LOCAL_SECRETS = ["CAMPAIGN_CODES"];

/**
 * Development's secrets. wrangler.toml holds none: a secret among its top-level [vars] makes wrangler tell every
 * environment to add it to its plain [vars] too. The deployed site's come from `wrangler secret put`; a local
 * server gets these (an environment variable of the same name overrides, as for [vars]), and so do the Worker
 * tests (vitest.config.ts).
 */
export const DEV_SECRETS = Object.freeze({
  SESSION_SECRET: "dev-only-session-secret-change-me-0123456789abcdef",
});

/**
 * The variables a local server overrides: its clock's start (NOW, and NOW_SET_AT = when that was decided,
 * so the clock advances from there), development's secrets (DEV_SECRETS), every configured URL on
 * localhost:8787 moved to the real origin (the Swish simulator's callbacks, the dev JWKS, the public origin used
 * in links and origin checks), and any other [vars] value given as an environment variable of the same name:
 * `SWISH_BASE_URL=… npm start` points the site at another Swish API (a stand-in, or MSS through a proxy),
 * `GOOGLE_JWKS_URL=… GOOGLE_CLIENT_ID=…` at another identity provider; and the LOCAL_SECRETS given in the
 * environment, and the DEV_SWITCHES set there.
 */
export function serverVars({ now, origin }, setAt = Date.now(), env = process.env) {
  const vars = { NOW: new Date(Date.parse(now)).toISOString(), NOW_SET_AT: String(setAt) };
  for (const [key, value] of Object.entries(DEV_SECRETS)) vars[key] = env[key] ?? value;
  for (const [key, value] of Object.entries(configuredVars())) {
    if (!OWN_VARS.has(key) && env[key] !== undefined) vars[key] = env[key];
    else if (value.startsWith(CONFIGURED_ORIGIN)) vars[key] = origin + value.slice(CONFIGURED_ORIGIN.length);
  }
  for (const key of [...LOCAL_SECRETS, ...DEV_SWITCHES]) if (env[key] !== undefined) vars[key] = env[key];
  return vars;
}

/**
 * The environment for a server the tests or benchmarks start: the [vars] overrides, local secrets and development
 * switches a developer's shell may hold (SWISH_BASE_URL, CAMPAIGN_CODES, CHILD_SAFE_PUBLISHING …) are dropped, so the tests always run against the built-in
 * stand-ins (a test that wants a secret passes its own: startLocalServer's `env`).
 */
export function withoutVarOverrides(env = process.env) {
  const kept = { ...env };
  for (const key of [
    ...Object.keys(DEV_SECRETS),
    ...Object.keys(configuredVars()),
    ...LOCAL_SECRETS,
    ...DEV_SWITCHES,
  ]) {
    if (!OWN_VARS.has(key)) delete kept[key];
  }
  return kept;
}
