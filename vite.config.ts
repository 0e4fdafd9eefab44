import { appendFile } from "node:fs/promises";
import path from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { unstable_readConfig } from "wrangler";
import { chunkGroup } from "./scripts/lib/chunk-groups.mjs";
import { headersFileRules } from "./src/shared/security-headers";

// `npm run dev` passes STATE_DIR so the dev server uses the same local D1/Durable Object state that
// scripts/start.mjs migrated and seeded (default .wrangler/state, the plugin's own default).
const stateDir = process.env.STATE_DIR;

/**
 * The settings the build needs from wrangler.toml: the environment being built (CLOUDFLARE_ENV, as for the
 * Cloudflare plugin; the top level, i.e. development, when unset). A local build, like `npm start`'s server,
 * takes a value from an environment variable of the same name when one is set (`MAP_TILE_URL=… npm start`); a
 * deployed environment's come from wrangler.toml only, so the Worker (which reads the same variables at run
 * time) and the pages never disagree.
 */
function siteSettings() {
  const environment = process.env.CLOUDFLARE_ENV || undefined;
  const { vars } = unstable_readConfig(
    { config: path.join(import.meta.dirname, "wrangler.toml"), env: environment },
    { hideWarnings: true },
  );
  const value = (name: string): string => {
    const local = environment ? undefined : process.env[name];
    const configured = vars[name];
    return local ?? (typeof configured === "string" ? configured : "");
  };
  return {
    publicOrigin: value("PUBLIC_ORIGIN"),
    mapTileUrl: value("MAP_TILE_URL"),
    mapTileAttribution: value("MAP_TILE_ATTRIBUTION"),
  };
}

const site = siteSettings();

/**
 * The static assets are served without the Worker (the admin area's start pages admin/_shell.html and
 * admin/_race-shell.html, the scripts, the pictures), so their security headers go into the built `_headers` file: the same headers the
 * Worker's middleware sends, from the same settings (src/shared/security-headers.ts). public/_headers keeps the
 * rules written by hand; this adds one rule for every path after them, and the admin area's two differing headers.
 */
function securityHeadersFile(): Plugin {
  return {
    name: "loppet:security-headers-file",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options) {
      const rules = headersFileRules({ publicOrigin: site.publicOrigin, mapTileUrl: site.mapTileUrl });
      const block = [
        "",
        "# Security headers (added by the build from wrangler.toml; src/shared/security-headers.ts).",
        rules,
      ];
      await appendFile(path.join(options.dir!, "_headers"), block.join("\n"));
    },
  };
}

/** The race-day feature's modules (src/web/features/race-day/), built together (below). */
const RACE_DAY_CODE = /[\\/]src[\\/]web[\\/]features[\\/]race-day[\\/]/;
/** Whether a module's id (any path separator) matches one of `patterns`. */
const matchesAny = (patterns: RegExp[]) => (id: string) =>
  patterns.some((pattern) => pattern.test(id.replaceAll("\\", "/")));
/**
 * Modules only the admin area imports, each a chunk of its own otherwise, built into the race-day chunk too: every
 * admin screen loads that chunk already (the admin shell holds the tap queues), so none downloads more, and the race
 * screen's start page names six files fewer.
 */
const WITH_RACE_DAY = [
  /\/src\/shared\/(race-answers|admin-roles|race-frames|object-calls|clock-sync)\.ts$/,
  /\/src\/web\/features\/admin\/admin-screens\.ts$/,
  /\/src\/web\/lib\/device-id\.ts$/,
  /\/src\/web\/sw\/config-copy\.ts$/,
];

/**
 * Public pages and the admin area share a few small chunks of their own otherwise; built into three chunks instead, so
 * the race screen's start page names seven files, not 24 (below):
 * - `ui`: Radix's dialog with what it imports, the site's dialog on it, and React Query's mutation hook: the phone
 *   menu, the registration form, the results and start lists and every admin screen (about 14 kB packed).
 * - `tabs`: Radix's tabs with their roving focus (the results, start lists and registrations overview; the admin
 *   shell's tabs are ui/nav-tabs.tsx), so the registration form and the race screen do not download them.
 * - `common`: race ids, the race protocol, time formats, the load and field wrappers, and registering a service
 *   worker, a few kB, which the stopwatch, the results pages and the admin area share.
 * A page that uses a part of one downloads the whole chunk; each page's entry is smaller than with each module in a
 * chunk of its own (fewer files pack better).
 */
const TABS = [
  /\/src\/web\/components\/ui\/tabs\.tsx$/,
  /\/node_modules\/@radix-ui\/react-(tabs|roving-focus|collection|direction|use-is-hydrated)\//,
];
const SHARED_UI = [
  /\/src\/web\/components\/ui\/dialog\.tsx$/,
  /\/node_modules\/@radix-ui\//,
  /\/node_modules\/(react-remove-scroll|react-remove-scroll-bar|use-callback-ref|use-sidecar|get-nonce|react-style-singleton|aria-hidden|tslib)\//,
  /\/node_modules\/@tanstack\/(react-query\/build\/modern\/useMutation|query-core\/build\/modern\/mutationObserver)\.js$/,
];
const SHARED_COMMON = [
  /\/src\/shared\/(race-id|race-protocol|time-format)\.ts$/,
  /\/src\/web\/components\/ui\/(load-state|field)\.tsx$/,
  /\/src\/web\/lib\/(register-service-worker|install-loop)\.ts$/,
];

export default defineConfig({
  plugins: [react(), cloudflare({ persistState: stateDir ? { path: stateDir } : true }), securityHeadersFile()],
  define: {
    // The page's own settings, from the same wrangler.toml variables the Worker reads.
    "import.meta.env.VITE_PUBLIC_ORIGIN": JSON.stringify(site.publicOrigin),
    "import.meta.env.VITE_MAP_TILE_URL": JSON.stringify(site.mapTileUrl),
    "import.meta.env.VITE_MAP_TILE_ATTRIBUTION": JSON.stringify(site.mapTileAttribution),
  },
  environments: {
    client: {
      build: {
        // The import graph, for the service workers' precache lists and the admin start pages
        // (scripts/service-workers.mjs moves it out of dist/client, so it is never served).
        manifest: true,
        rollupOptions: {
          output: {
            // Fewer, larger files: each file the phone asks for costs its main thread a request through the service
            // worker and a module to link (opening the race screen again on a slow phone: bench/race-screen-load.mjs,
            // RACE_LOAD_TRACE), so the race screen's start page names seven scripts (the entry, Rolldown's runtime,
            // the admin shell, `ui`, `common`, race-day and the race screen), not 24.
            // - `app`: every module the entry imports, one chunk with the entry (Rolldown otherwise splits off each
            //   group of them that lazy screens import too: ten files that every page loads). First, so no group
            //   below takes a module the entry needs, which every page would then download with that group.
            // - `race-day`: the race-day feature's own code and the modules only the admin area imports
            //   (WITH_RACE_DAY). Each screen's module (*-page.tsx, a route of its own) keeps a chunk of its own: Vite's
            //   manifest still names the race screen and the admin shell (scripts/service-workers.mjs), and a screen
            //   not yet opened is still fetched when opened (a deploy in between reloads the page onto the new code:
            //   test/e2e/offline-deploy.test.ts).
            // - `ui`, `tabs` and `common`: what public pages share with the admin area (above).
            // Each group takes only the modules it names: what they import stays where it was.
            codeSplitting: {
              groups: [
                { name: "app", tags: ["$initial"], priority: 1, includeDependenciesRecursively: false },
                {
                  name: "race-day",
                  test: (id: string) =>
                    (RACE_DAY_CODE.test(id) && !id.endsWith("-page.tsx")) || matchesAny(WITH_RACE_DAY)(id),
                  includeDependenciesRecursively: false,
                },
                { name: "tabs", test: matchesAny(TABS), includeDependenciesRecursively: false },
                // After `tabs`: the Radix modules it did not take.
                { name: "ui", test: matchesAny(SHARED_UI), includeDependenciesRecursively: false },
                { name: "common", test: matchesAny(SHARED_COMMON), includeDependenciesRecursively: false },
              ],
            },
            // Code only organisers, the stopwatch, the map or the carousel need is built into its own folder
            // (assets/admin/, assets/timing/ …), so a browser test can tell from the addresses a page requests that
            // a visitor never downloads it (scripts/lib/chunk-groups.mjs).
            chunkFileNames: (chunk) => {
              const group = chunkGroup(chunk);
              return group ? `assets/${group}/[name]-[hash].js` : "assets/[name]-[hash].js";
            },
          },
        },
      },
    },
  },
});
