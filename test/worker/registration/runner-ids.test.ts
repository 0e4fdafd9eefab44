/**
 * A family can touch only its own runners (issue 38, item 1). Runner ids are made by the browser and public in every
 * `sort`, so a runner made on the race screen (no participants row) could be taken over by a family that saves its
 * id: the race would mirror its bib and time into the family's row. Now every id is reserved where it is made, a save
 * naming someone else's id is a 409 with nothing written (and audited), and the race's D1 mirror writes only the row
 * of its own runner's owner.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { raceIdForSeason } from "../../../src/shared/race-id";
import type { RunnerRecord } from "../../../src/shared/race-protocol";
import { SEASON } from "../../../src/shared/season";
import { ensureSeasonRaces } from "../../../src/worker/race-day/races-db";
import { database } from "../../../src/worker/db/client";
import { get, loginAdmin, post, waitFor } from "../helpers";
import { getRegistration, login, runner, update } from "../registration-helpers";

const PART = raceIdForSeason("5.6", SEASON);

/** A runner an organiser adds on the race screen, as the public start list then shows it. */
async function raceScreenRunner(firstname: string, bib: number): Promise<{ id: string; sort: string }> {
  await ensureSeasonRaces(database(env.DB), SEASON);
  const admin = await loginAdmin();
  const res = await post(
    `/admin/api/races/add-runner/${PART}`,
    { firstname, lastname: "Gäst", age: 9, bib, group: "Ingen", company: "" },
    { jar: admin },
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const added = (await res.json()) as RunnerRecord;
  // The public start list carries its sort, and so its id (the spectators' copy follows the race a moment later).
  let seen: { sort: string } | undefined;
  await waitFor(async () => {
    const publicList = (await (await get(`/api/races/get/${PART}`)).json()) as { sort: string }[];
    seen = publicList.find((r) => r.sort === added.sort);
    return seen !== undefined;
  });
  return { id: seen!.sort.slice("runner-".length), sort: seen!.sort };
}

async function participantRow(id: string) {
  return env.DB.prepare("SELECT registration_id, race_id, bib FROM participants WHERE id = ?")
    .bind(id)
    .first<{ registration_id: string | null; race_id: string | null; bib: number | null }>();
}

describe("a runner made on the race screen", () => {
  it("cannot be saved into a family's registration: 409, nothing written, audited", async () => {
    const taken = await raceScreenRunner("Vera", 731);
    const family = await login();
    const before = await getRegistration(family);
    const saved = await update(family, {
      runners: { [taken.id]: runner({ firstname: "Vera", lastname: "Gäst", age: 9, distance: "5.6", group: "Ingen" }) },
      version: before.body.version,
    });
    expect(saved.res.status).toBe(409);
    expect(saved.body.error).toBe(
      "Löparen hör till någon annan och kan inte sparas i din anmälan. Ladda om sidan och lägg till löparen igen.",
    );
    expect(await participantRow(taken.id)).toBeNull();
    expect((await getRegistration(family)).body).toMatchObject({ version: before.body.version, deltagare: {} });
    const audited = await env.DB.prepare(
      "SELECT actor, detail FROM audit_log WHERE action = 'registration.runner-id-taken' AND detail LIKE ?",
    )
      .bind(`%${taken.id}%`)
      .first<{ actor: string; detail: string }>();
    expect(audited?.actor).toBe(family.email);
    // The family's own new runner beside it is not the problem: saved alone it goes through.
    const own = await update(family, { runners: { [crypto.randomUUID()]: runner() }, version: before.body.version });
    expect(own.res.status).toBe(200);
  });

  it("is never mirrored into a participants row with its id (one from before ids were reserved)", async () => {
    const taken = await raceScreenRunner("Wilma", 732);
    const family = await login();
    await update(family, { runners: {}, version: 0 });
    const registration = await env.DB.prepare("SELECT id FROM registrations WHERE email = ?")
      .bind(family.email)
      .first<{ id: string }>();
    // Data from before the reservation existed: the family's row with the race-screen runner's id. No call can make
    // it any more (the test above), so it is written by hand.
    await env.DB.prepare(
      `INSERT INTO participants (id, registration_id, season, firstname, lastname, age, company, distance, "group",
         created_at)
       VALUES (?, ?, ?, 'Wilma', 'Gäst', 9, '', '5.6', 'Ingen', ?)`,
    )
      .bind(taken.id, registration!.id, SEASON.year, Date.now())
      .run();
    // The race changes the runner (a bib): its mirror must not reach the family's row.
    const admin = await loginAdmin();
    const bib = await get(`/admin/api/races/register-bib/${PART}/${taken.sort}/733`, { jar: admin });
    expect(bib.status).toBe(200);
    expect(await participantRow(taken.id)).toEqual({ registration_id: registration!.id, race_id: null, bib: null });
  });
});
