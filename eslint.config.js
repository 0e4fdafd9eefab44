import path from "node:path";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const ROOT = import.meta.dirname;

/**
 * The folder direction (README, "Architecture"), checked on every relative import by where it resolves:
 * - src/web: app/ → features/ → components/ → lib/ (and src/shared). components/ and lib/ never import features/
 *   or app/, lib/ never imports components/, and a feature never imports app/.
 * - A feature (src/web/features/<area>/, or features/admin/<area>/) imports another feature's `api/` calls only,
 *   nothing else of it (type imports included): what two features share lives in components/, lib/ or src/shared.
 * - src/worker: db/, lib/, adapters/ and middleware/ never import a resource folder; no Worker module but index.ts
 *   (which exports the Durable Object classes to the runtime) imports src/durable at run time (types only).
 * - A dynamic `import("…")` also keeps the direction between src/shared, the server and the SPA (directionRule).
 */
function importTarget(context, source) {
  if (!source.startsWith(".")) return null;
  return path
    .relative(ROOT, path.resolve(path.dirname(context.filename), source))
    .split(path.sep)
    .join("/");
}

function featureOf(file) {
  const m = /^src\/web\/features\/(admin\/[^/]+(?=\/)|[^/]+(?=\/))/.exec(file);
  return m ? m[1] : null;
}

const WORKER_BELOW = ["db", "lib", "adapters", "middleware"];

/** The Worker's one way into the SPA: the server entry that renders the data pages (README, "Architecture"). */
const PAGE_RENDERER = "#page-renderer";
const PAGE_RENDERER_USER = "src/worker/site/data-pages.ts";
const PAGE_RENDERER_MESSAGE = `Only ${PAGE_RENDERER_USER} imports ${PAGE_RENDERER}: the Worker's one way into the SPA.`;
const CAMPAIGN_WORDS = /(^|\/)(builtin-campaigns|demo-campaigns)$|(^|\/)worker\/(campaigns|dev)\//;
const CAMPAIGN_WORDS_MESSAGE =
  "Campaign code words are Worker-only: the browser learns a code's price from /validate-kampanj alone.";

/**
 * The direction between src/shared, the server and the SPA for a dynamic `import("…")`, which
 * no-restricted-imports (below, for static imports and exports) does not see: the same rules, the same words.
 * The message for an import that breaks one, or null.
 */
function directionRule(from, source, to) {
  const under = (file, dir) => file.startsWith(dir + "/");
  if (under(from, "src/shared") && !source.startsWith("./")) return "src/shared imports only src/shared (./…).";
  if (under(from, "src/worker") || under(from, "src/durable")) {
    if (to && under(to, "src/web")) return "Nothing on the server imports the SPA.";
    if (source === PAGE_RENDERER && from !== PAGE_RENDERER_USER) return PAGE_RENDERER_MESSAGE;
  }
  if (under(from, "src/web")) {
    if (CAMPAIGN_WORDS.test(source)) return CAMPAIGN_WORDS_MESSAGE;
    if (to && (under(to, "src/worker") || under(to, "src/durable"))) return "The browser never imports server code.";
  }
  return null;
}

function folderRule(context, node, source, typeOnly, dynamic = false) {
  const from = path.relative(ROOT, context.filename).split(path.sep).join("/");
  const to = importTarget(context, source);
  const report = (message) => context.report({ node, message });
  const direction = dynamic ? directionRule(from, source, to) : null;
  if (direction) return report(direction);
  if (!to) return;
  const under = (file, dir) => file.startsWith(dir + "/");
  if (under(from, "src/web")) {
    if (
      (under(from, "src/web/components") || under(from, "src/web/lib")) &&
      (under(to, "src/web/features") || under(to, "src/web/app"))
    )
      return report(
        "components/ and lib/ never import features/ or app/ (src/web: app → features → components → lib).",
      );
    if (under(from, "src/web/lib") && under(to, "src/web/components"))
      return report("lib/ never imports components/ (src/web: app → features → components → lib).");
    if (under(from, "src/web/features") && under(to, "src/web/app"))
      return report("A feature never imports app/: app composes the features.");
    const mine = featureOf(from);
    const theirs = featureOf(to);
    if (mine && theirs && mine !== theirs && !under(to, `src/web/features/${theirs}/api`))
      return report(
        `features/${mine} imports ${to.slice("src/web/".length)}: another feature's internals. Only its api/ calls; what features share lives in components/, lib/ or src/shared.`,
      );
  }
  if (under(from, "src/worker")) {
    const top = (file) => file.split("/")[2];
    if (
      WORKER_BELOW.includes(top(from)) &&
      under(to, "src/worker") &&
      to.split("/").length > 3 &&
      !WORKER_BELOW.includes(top(to))
    )
      return report(`worker/${top(from)} is below the resources: it never imports worker/${top(to)}.`);
    if (!typeOnly && under(to, "src/durable") && from !== "src/worker/index.ts")
      return report("A Worker module imports src/durable for types only (import type), never at run time.");
  }
}

const boundaries = {
  rules: {
    folders: {
      meta: { type: "problem", schema: [] },
      create(context) {
        const isType = (node) =>
          node.importKind === "type" ||
          node.exportKind === "type" ||
          (node.specifiers?.length > 0 &&
            node.specifiers.every((s) => s.importKind === "type" || s.exportKind === "type"));
        const check = (node) =>
          node.source &&
          typeof node.source.value === "string" &&
          folderRule(context, node, node.source.value, isType(node));
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: (node) =>
            node.source.type === "Literal" &&
            typeof node.source.value === "string" &&
            folderRule(context, node, node.source.value, false, true),
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", ".wrangler/", "src/worker/worker-configuration.d.ts", "bench/results/"] },
  ...tseslint.configs.recommended,
  // React's rules of hooks and the React Compiler's checks, on the SPA.
  { files: ["src/web/**/*.{ts,tsx}"], ...reactHooks.configs.flat["recommended-latest"] },
  { files: ["src/**/*.{ts,tsx}"], plugins: { boundaries }, rules: { "boundaries/folders": "error" } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // The architecture (README): imports flow one way.
  {
    // Nothing on the server imports the SPA, but the data pages' renderer: the SPA's server entry (package.json
    // "imports"), which only src/worker/site/data-pages.ts imports.
    files: ["src/worker/**", "src/durable/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: PAGE_RENDERER, message: PAGE_RENDERER_MESSAGE }], patterns: ["**/web/**"] },
      ],
    },
  },
  {
    files: [PAGE_RENDERER_USER],
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
              message: CAMPAIGN_WORDS_MESSAGE,
            },
            { group: ["**/worker/**", "**/durable/**"], message: "The browser never imports server code." },
          ],
        },
      ],
    },
  },
);
