/**
 * Correction mails whatever changed the race (issue 28, item 3): once a race's results are official, the race
 * object itself leaves the families' results mail owed on every change it commits and sends it from its alarm
 * (src/durable/race/results-mail.ts), so a change that reaches the race without a race-day route (an RPC call as the
 * box office, the bib desk, a refund or the object's own alarm make them), a runner taken out of the race (a move to
 * another distance), and corrections in quick succession (two phones, retries) each reach the families whose own
 * runner changed: once, in the order of the changes, through the mail queue, never to an unsubscribed family. A
 * correction is mailed once the race has been still for RESULTS_MAIL_QUIET_MS (the race object's alarm waits for
 * it: test/durable/race/results-mail.test.ts): here development's `POST /dev/races/{race}/results-mail` makes it
 * due at once, as three quiet minutes would.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import { SEASON } from "../../../src/shared/season";
import { testRace } from "../race-calls";
import type { RaceRecord } from "../../../src/shared/race-protocol";
import { familyTimeText } from "../../../src/worker/registration/diplomas";
import { correctionMailText, type MailedRunner } from "../../../src/worker/registration/results-mails";
import { loginAdmin, post, waitFor } from "../helpers";
import { paidChildFamily } from "../registration-helpers";

const PART = raceIdForSeason("0.8", SEASON);
const OTHER = raceIdForSeason("1.6", SEASON);

/** A paid family with one child on 0.8. */
function family(firstname: string, lastname: string) {
  return paidChildFamily({ firstname, lastname });
}

/** The results mails written for an address, oldest first. */
async function mailsTo(email: string) {
  const { results } = await env.DB.prepare(
    `SELECT m.subject, m.message FROM mailings m JOIN mailing_recipients r ON r.mailing_id = m.id
      WHERE m.audience = 'results' AND r.email = ? ORDER BY m.id`,
  )
    .bind(email)
    .all<{ subject: string; message: string }>();
  return results;
}

const CORRECTED = "Rättade resultat: Byloppet 2025, 0,8km";

/** The race has been still long enough: its owed mail goes out now (the clock cannot be moved on workerd). */
async function quietOver(part: string): Promise<void> {
  expect((await post(`/dev/races/${part}/results-mail`, {})).status, "a mail owed").toBe(200);
}

/** An ended race of these families, marked official through the route: each family has its official mail. */
async function officialRace(finishers: { id: string; agoMs: number }[], emails: string[]) {
  const race = testRace(PART);
  const now = Date.now();
  await race.run({ type: "start", tap: { tapId: crypto.randomUUID(), at: now - 600_000 } });
  for (const r of await race.listRunners()) {
    const f = finishers.find((x) => x.id === r.id);
    if (f) await race.run({ type: "finish", runnerId: r.id, tap: { tapId: crypto.randomUUID(), at: now - f.agoMs } });
    else await race.run({ type: "set-dns", runnerId: r.id, dns: true });
  }
  await race.run({ type: "end" });
  const admin = await loginAdmin();
  expect((await post(`/admin/api/races/official/${PART}`, {}, { jar: admin })).status).toBe(200);
  for (const email of emails) await waitFor(async () => (await mailsTo(email)).length === 1, 5000, "official mail");
  return race;
}

describe("correction mails from every path that changes an official result", () => {
  it("a change through the race object's RPC (no race-day route) mails only the corrected family, once", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const dana = await family("Dana", "Berg");
    const erik = await family("Erik", "Holm");
    const fia = await family("Fia", "Lund");
    await env.DB.prepare("INSERT INTO unsubscribes (email, at) VALUES (?, ?)").bind(fia.email, Date.now()).run();
    await officialRace(
      [
        { id: dana.id, agoMs: 350_000 },
        { id: erik.id, agoMs: 300_000 },
        { id: fia.id, agoMs: 250_000 },
      ],
      [dana.email, erik.email],
    );
    expect(await mailsTo(fia.email)).toEqual([]);

    // Dana's finish re-recorded straight on the race object, as a script or another desk would: no race-day route.
    const now = Date.now();
    await race.run({
      type: "finish",
      runnerId: dana.id,
      tap: { tapId: crypto.randomUUID(), at: now - 250_000, rerecord: true },
    });
    // Fia's finish re-recorded too: unsubscribed, she is told nothing.
    await race.run({
      type: "finish",
      runnerId: fia.id,
      tap: { tapId: crypto.randomUUID(), at: now - 240_000, rerecord: true },
    });
    // Nothing until the race has been still.
    expect(await mailsTo(dana.email)).toHaveLength(1);
    await quietOver(PART);
    await waitFor(async () => (await mailsTo(dana.email)).length === 2, 5000, "the correction mail");
    const correction = (await mailsTo(dana.email))[1]!;
    expect(correction.subject).toBe(CORRECTED);
    expect(correction.message).toMatch(/Dana Berg: 04:10,0 → \d\d:\d\d,\d/);
    expect(correction.message).not.toContain("Erik");
    // Erik's placing moved up; his own result did not change: nothing. Nothing more for anyone after a while.
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(erik.email)).toHaveLength(1);
    expect(await mailsTo(fia.email)).toEqual([]);
    expect(await mailsTo(dana.email)).toHaveLength(2);
  });

  it("corrections in quick succession are told once, when the race is still: from the official time to the last", async () => {
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    const gun = await family("Gun", "Ström");
    await officialRace([{ id: gun.id, agoMs: 400_000 }], [gun.email]);

    // Two phones and a retry: Gun's finish re-recorded three times in a row, each straight after the other.
    const now = Date.now();
    for (const ago of [390_000, 385_000, 380_000]) {
      await race.run({
        type: "finish",
        runnerId: gun.id,
        tap: { tapId: crypto.randomUUID(), at: now - ago, rerecord: true },
      });
    }
    const finalTime = familyTimeText((await race.getRunner(gun.id))!.time!);
    await quietOver(PART);
    await waitFor(
      async () => (await mailsTo(gun.email)).at(-1)!.message.includes(`→ ${finalTime}`),
      5000,
      "a mail with the last time",
    );
    await new Promise((r) => setTimeout(r, 500));
    const mails = await mailsTo(gun.email);
    // One correction, from what the family was told (the official time) to the race as it is now: no step between.
    const told = mails.slice(1).map((m) => /Gun Ström: (.+) → (.+)/.exec(m.message)!.slice(1, 3));
    expect(told).toEqual([["03:20,0", finalTime]]);
  });

  it("a runner moved to another distance after the results were official: the family is told, once", async () => {
    // A finisher cannot be moved once the race has ended (the finish must be undone first, which is offered only
    // while the race is started); a runner who did not start can be, and the family's mail said 'startade inte'.
    const race = testRace(PART);
    await race.run({ type: "reset" }).catch(() => undefined);
    await testRace(OTHER)
      .run({ type: "reset" })
      .catch(() => undefined);
    const hugo = await family("Hugo", "Vik");
    const ines = await family("Ines", "Sjö");
    await officialRace([{ id: ines.id, agoMs: 320_000 }], [hugo.email, ines.email]);
    expect((await mailsTo(hugo.email))[0]!.message).toContain("Hugo Vik: startade inte");

    const moved = await race.moveRunner(OTHER, hugo.id);
    expect(moved.runner).toMatchObject({ part: OTHER });
    await quietOver(PART);
    await waitFor(async () => (await mailsTo(hugo.email)).length === 2, 5000, "the correction mail");
    const correction = (await mailsTo(hugo.email))[1]!;
    expect(correction.subject).toBe(CORRECTED);
    expect(correction.message).toContain("Hugo Vik: startade inte → inte längre med i loppet");
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(hugo.email)).toHaveLength(2);
    expect(await mailsTo(ines.email)).toHaveLength(1);
    await testRace(OTHER)
      .run({ type: "reset" })
      .catch(() => undefined);
  });
});

describe("the correction mail's text", () => {
  const race = {
    type: "race",
    part: PART,
    sort: "race",
    state: "ended",
    started: 0,
    date: SEASON.raceDay,
    distance: 800,
    openForReg: false,
  } as unknown as RaceRecord;
  const told: MailedRunner[] = [{ id: "a", name: "Alva Ek", status: "finished", time: "05:00.000" }];

  it("a runner added after the last mail is a change once they have a time, not while marked DNS", () => {
    const late: MailedRunner = { id: "b", name: "Bo Ek", status: "dns", time: null };
    expect(correctionMailText(race, told, [...told, late], "https://lopp.test")).toBeNull();
    const mail = correctionMailText(
      race,
      told,
      [...told, { ...late, status: "finished", time: "03:20.000" }],
      "https://lopp.test",
    );
    expect(mail!.message).toContain("Bo Ek: 03:20,0");
    expect(mail!.message).not.toContain("Alva");
  });

  it("a runner no longer in the race is told as such", () => {
    const mail = correctionMailText(race, told, [{ ...told[0]!, status: "removed", time: null }], "https://lopp.test");
    expect(mail!.message).toContain("Alva Ek: 05:00,0 → inte längre med i loppet");
  });
});
