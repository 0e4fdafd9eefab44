import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { chunkGroup } from "./scripts/lib/chunk-groups.mjs";

// `npm run dev` passes STATE_DIR so the dev server uses the same local D1/Durable Object state that
// scripts/start.mjs migrated and seeded (default .wrangler/state, the plugin's own default).
const stateDir = process.env.STATE_DIR;

export default defineConfig({
  plugins: [react(), cloudflare({ persistState: stateDir ? { path: stateDir } : true })],
  environments: {
    client: {
      build: {
        // The import graph, for the service workers' precache lists and the admin start pages
        // (scripts/service-workers.mjs moves it out of dist/client, so it is never served).
        manifest: true,
        rollupOptions: {
          output: {
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
