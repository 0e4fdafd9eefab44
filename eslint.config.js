import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", ".wrangler/", "src/worker/worker-configuration.d.ts", "bench/results/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // The architecture (README): imports flow one way.
  {
    // Nothing on the server imports the SPA.
    files: ["src/worker/**", "src/durable/**"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/web/**"] }] },
  },
  {
    // The shared rules are pure: they import nothing but each other.
    files: ["src/shared/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!\\./)", message: "src/shared imports only src/shared (./…)." }] },
      ],
    },
  },
  {
    // A route file (a resource's Hono sub-app) never reaches into another route file: what two resources share
    // is a service or data function of one of them, or lives in db/, lib/, adapters/ or src/shared.
    files: ["src/worker/*/routes.ts", "src/worker/*/*-routes.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "(^|/)(routes|[a-z-]+-routes)$", message: "A route file never imports another route file." },
          ],
        },
      ],
    },
  },
  {
    // The browser never imports server code. Above all not the campaign code words (the CAMPAIGN_CODES reader and
    // the demo words): anything the SPA imports is in every public page's JavaScript, for anyone to read.
    files: ["src/web/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/builtin-campaigns", "**/demo-campaigns", "**/worker/campaigns/**", "**/worker/dev/**"],
              message:
                "Campaign code words are Worker-only: the browser learns a code's price from /validate-kampanj alone.",
            },
            { group: ["**/worker/**", "**/durable/**"], message: "The browser never imports server code." },
          ],
        },
      ],
    },
  },
);
