import { defineConfig } from "drizzle-kit";

// Generate only (`npm run db:generate`): flat SQL files that wrangler and the test integration both read.
export default defineConfig({ schema: "./src/worker/db/schema.ts", out: "./migrations", dialect: "sqlite" });
