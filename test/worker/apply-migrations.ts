/**
 * Runs before every file of the workerd project. The project shares one workerd per vitest worker between its files
 * (`isolate: false` in vitest.config.ts: a runtime per file cost most of the project's time), so each file starts
 * from nothing here: `reset()` deletes what every binding holds (D1, the Durable Objects, R2, the queue's state), and
 * the migrations are applied again to the empty D1.
 */
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";

await reset();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
