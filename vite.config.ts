import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `npm run dev` passes STATE_DIR so the dev server uses the same local D1/Durable Object state that
// scripts/start.mjs migrated and seeded (default .wrangler/state, the plugin's own default).
const stateDir = process.env.STATE_DIR;

export default defineConfig({
  plugins: [react(), cloudflare({ persistState: stateDir ? { path: stateDir } : true })],
});
