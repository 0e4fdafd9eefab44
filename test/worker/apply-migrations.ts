/**
 * Runs before every file of the workerd project. The project shares one workerd per vitest worker between its files
 * (`isolate: false` in vitest.config.ts: a runtime per file cost most of the project's time), so each file starts
 * from nothing here: the Worker's in-memory copies are forgotten (`forgetIsolateMemory`: a race's public view, the
 * family pages' race, the rendered data pages, verified sessions), `reset()` deletes what every binding holds (D1, the
 * Durable Objects, R2), and the migrations are applied again to the empty D1.
 */
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { forgetIsolateMemory } from "../../src/worker/lib/isolate-memory";

forgetIsolateMemory();
await reset();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
