// Secrets and development-only settings are not in wrangler.toml, so `wrangler types` cannot see them
// (docs/organiser.md, "Hemligheter"). Development's values come from scripts/lib/settings.mjs (DEV_SECRETS,
// serverVars) and vitest.config.ts.
interface WorkerSecrets {
  /** Signs sessions, login-code hashes and unsubscribe links: 32 characters or more. */
  SESSION_SECRET: string;
  /** API key of the HTTP e-mail provider used for bulk mail (EMAIL_TRANSPORT = "resend"). */
  EMAIL_API_KEY?: string;
  /**
   * The season's built-in campaign codes, a JSON object of word → {rule, validUntil?, maxUses?}
   * (src/worker/campaigns/builtin-campaigns.ts). Production reads its words from here alone.
   */
  CAMPAIGN_CODES?: string;
  /** Development only: where the server clock starts (ISO) and when that was set (epoch ms); scripts/start.mjs. */
  NOW?: string;
  NOW_SET_AT?: string;
  /**
   * Development only: "true" or "false" sets the season's child-safe publishing for a local server
   * (src/shared/dev-season.ts; the browser tests' second server). Ignored outside development mode.
   */
  CHILD_SAFE_PUBLISHING?: string;
  /** Development only: "vite" when `npm run dev` serves the pages (scripts/start.mjs). */
  DEV_SERVER?: string;
}

// Merged into the generated Env (worker-configuration.d.ts) and the one `cloudflare:workers` exports.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface Env extends WorkerSecrets {}

declare namespace Cloudflare {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Env extends WorkerSecrets {}
}
