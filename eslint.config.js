import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", ".wrangler/", "src/worker/worker-configuration.d.ts", "bench/results/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Architecture: nothing imports the SPA; the shared rules import nothing but each other.
    files: ["src/worker/**", "src/durable/**", "src/shared/**"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/web/**"] }] },
  },
);
