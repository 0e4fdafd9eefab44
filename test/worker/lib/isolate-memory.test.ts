/**
 * The workerd files share one runtime (vitest.config.ts), so what the Worker keeps in its isolate must be forgotten
 * between them (test/worker/apply-migrations.ts). This checks that a copy kept through `keptInIsolate` is really the
 * one the Worker answers from, and that `forgetIsolateMemory` drops it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { database } from "../../../src/worker/db/client";
import { forgetIsolateMemory } from "../../../src/worker/lib/isolate-memory";
import { ensureSeasonRaces } from "../../../src/worker/race-day/races-db";
import { dataPage } from "../../../src/worker/site/data-pages";

describe("the isolate's memory", () => {
  it("keeps a rendered page within its age bound, and forgets it on forgetIsolateMemory", async () => {
    const db = database(env.DB);
    const now = Date.now();
    await ensureSeasonRaces(db, SEASON);
    const part = raceIdForSeason("0.8", SEASON);
    const before = await dataPage(env, db, "/startlistor", now);
    expect(before.script).toContain(`"part":"${part}"`);
    expect(before.script).not.toContain(`"distance":800,"openForReg":false`);
    await env.DB.prepare("UPDATE races SET open_for_reg = 0 WHERE part = ?").bind(part).run();
    // Within RENDERED_COPY_MS the isolate answers its copy: the change made since is not in it.
    expect((await dataPage(env, db, "/startlistor", now)).digest).toBe(before.digest);
    forgetIsolateMemory();
    const fresh = await dataPage(env, db, "/startlistor", now);
    expect(fresh.script).toContain(`"distance":800,"openForReg":false`);
  });
});
