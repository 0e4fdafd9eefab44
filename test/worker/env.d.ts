declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** JSON of [env.production]'s variables as wrangler resolves them (vitest.config.ts). */
    TEST_PRODUCTION_VARS: string;
  }
}
