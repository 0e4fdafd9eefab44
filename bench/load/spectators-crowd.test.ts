/**
 * Load, run by hand (`npm run bench spectators-crowd`, never by `npm test`): 10,000 spectators' sockets opened at once
 * through the real Worker into the real fan-out object (src/durable/spectators.ts) and dropped. The race object is
 * read no more often than the fan-out's own revalidation, its audit trail is untouched, and an admin's socket still
 * gets the next finish. In-process sockets (the workerd test runtime, vitest.config.ts's `load` project): over
 * loopback TCP, wrangler's dev proxy and the local runtime run out of this machine's open files first, which no
 * Cloudflare location has.
 */
import { describe, expect, it } from "vitest";
import { REVALIDATE_MS } from "../../src/durable/spectators";
import type { RaceRecord } from "../../src/shared/race-protocol";
import { loginAdmin, waitFor } from "../../test/worker/helpers";
import {
  auditTypes,
  dataFrames,
  finish,
  json,
  subscribe,
  tapId,
  useRaceYear,
} from "../../test/durable/race/race-helpers";
import { publicJson, runningRace, spectate, stats } from "../../test/durable/spectator-helpers";

useRaceYear(2074);

describe("a crowd", () => {
  it("10,000 sockets opened and dropped at once leave the race object and the admins' sockets untouched", async () => {
    const jar = await loginAdmin();
    const { part, runners } = await runningRace(jar, 2);
    const admin = await subscribe(jar, part);
    await spectate(part).then((s) => s.ws.close());
    const audit = await auditTypes(part);
    const before = await stats(jar, part);

    const crowd = 10_000;
    const began = Date.now();
    // Each its own phone: the public sockets are capped per client (src/durable/socket-clients.ts).
    const sockets = await Promise.all(
      Array.from({ length: crowd }, (_, i) =>
        spectate(part, 0, { "cf-connecting-ip": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }),
      ),
    );
    await Promise.all(sockets.map((s) => s.next()));
    for (const s of sockets) s.ws.close();

    const after = await stats(jar, part);
    expect(after.connects - before.connects).toBe(crowd);
    // The crowd never decides how often the race object is read: at most the fan-out's own revalidation, once per
    // REVALIDATE_MS of the crowd's time (a busy machine takes longer than that to open 10,000 sockets).
    expect(after.raceReads - before.raceReads).toBeLessThanOrEqual(Math.floor((Date.now() - began) / REVALIDATE_MS));
    expect(await auditTypes(part)).toEqual(audit);
    const [race] = await publicJson(part);
    expect((race as RaceRecord).state).toBe("started");

    const answer = await json<{ runner: { seq: number } }>(
      await finish(jar, part, runners[1]!.sort, { tap: tapId(), at: Date.now() - 1_000 }),
    );
    await waitFor(() =>
      dataFrames(admin.socket)
        .flat()
        .some((e) => e.sort === runners[1]!.sort && e.seq === answer.runner.seq),
    );
    admin.socket.ws.close();
  }, 180_000);
});
