/**
 * The bib desk ('Nummerlappar', /admin/incheckning): find a family (its check-in code from the QR, or a search by
 * name, e-mail or bib), show its runners as their races have them, and check them in ('Hämtat'), undo it, or give
 * a runner a bib. The race objects decide and write every change (src/durable/race/rules/checkin.ts); this module
 * finds the family in D1 and sends each runner's part of an action to the runner's race.
 *
 * Concurrency: two desks, a desk and a timing phone, or a desk's queue replaying an action all end in the race
 * object, which takes one call at a time; a family already checked in is reported (`already`), never checked in
 * twice, and an action id already answered changes nothing ('replayed'). An action over several races (a family on
 * two distances) is one call per race with the same action id: if the connection breaks after the first, the
 * desk's replay finds that one answered and does the rest.
 *
 * A runner who changed distance after the desk showed the family is refused by the old race (404); the desk then
 * hears which distance the runner is on now (409), and nothing was checked in for that runner.
 *
 * An adult running with a child without competing (shared/companion.ts) is in no race: the desk marks their
 * pick-up in D1 itself (raceId null in the request), in one conditional statement per action: picking up keeps
 * the first moment (a second desk or a replay changes nothing and hears `already`), an undo clears it. Only a paid,
 * not deregistered companion is marked; anyone else without a race is refused (409) with nothing written.
 */
import {
  CHECKIN_MSG,
  MAX_DESK_RUNNERS,
  type DeskFamily,
  type DeskFamilyKind,
  type DeskRunner,
  type DeskSearchHit,
  type PickupAnswer,
  type PickupRequest,
} from "../../shared/checkin";
import type { RunnerRecord } from "../../shared/race-protocol";
import { SEASON } from "../../shared/season";
import type { ChangeAuthor } from "../../durable/race/types";
import type { Db } from "../db/client";
import { ApiError } from "../lib/errors";
import { answered, raceStub, runOnRace } from "../race-day/race-runners";
import {
  boxOfficeParticipant,
  markCompanionsPickedUp,
  participantRace,
  registrationByCode,
  registrationForDesk,
  registrationParticipants,
  searchParticipants,
  type ParticipantForDesk,
  type SearchRow,
} from "../db/checkin-db";

function deskRunner(p: ParticipantForDesk, live?: RunnerRecord): DeskRunner {
  const runner: DeskRunner = {
    id: p.id,
    firstname: live?.firstname ?? p.firstname,
    lastname: live?.lastname ?? p.lastname,
    age: live?.age ?? p.age,
    distance: p.distance,
    group: live?.group ?? p.group,
    raceId: live?.part ?? p.raceId,
    bib: live ? live.bib : p.bib,
    pickedUpAt: live ? (live.pickedUpAt ?? null) : p.pickedUpAt,
    paid: p.paidBy !== null,
  };
  if (p.deregisteredAt !== null) runner.deregistered = true;
  if (p.companion) runner.companion = true;
  if (live?.dns) runner.dns = true;
  return runner;
}

/** Every runner still registered is paid, and there is one. */
function allPaid(runners: readonly Pick<DeskRunner, "paid" | "deregistered">[]): boolean {
  const active = runners.filter((r) => !r.deregistered);
  return active.length > 0 && active.every((r) => r.paid);
}

/** The runners as their races have them now: one call per race (a family spans at most the season's four). */
async function liveRunners(env: Env, participants: ParticipantForDesk[]): Promise<DeskRunner[]> {
  const byRace = new Map<string, string[]>();
  for (const p of participants) if (p.raceId) byRace.set(p.raceId, [...(byRace.get(p.raceId) ?? []), p.id]);
  const live = new Map<string, RunnerRecord>();
  const answers = await Promise.all(
    [...byRace].map(([part, ids]) => answered(raceStub(env, part).runnersById(ids.slice(0, MAX_DESK_RUNNERS)))),
  );
  for (const records of answers) for (const r of records) live.set(r.id, r);
  return participants.map((p) => deskRunner(p, live.get(p.id)));
}

export async function familyByKind(env: Env, db: Db, kind: DeskFamilyKind, id: string): Promise<DeskFamily> {
  if (kind === "kassa") {
    const p = await boxOfficeParticipant(db, id);
    if (!p) throw new ApiError(404, CHECKIN_MSG.noFamily);
    const runners = await liveRunners(env, [p]);
    return {
      kind,
      id,
      season: p.season,
      email: null,
      phone: p.phone,
      paid: allPaid(runners),
      paymentStatus: null,
      runners,
    };
  }
  const registration = await registrationForDesk(db, id);
  if (!registration) throw new ApiError(404, CHECKIN_MSG.noFamily);
  const runners = await liveRunners(env, await registrationParticipants(db, id));
  return {
    kind,
    id,
    season: registration.season,
    email: registration.email,
    phone: null,
    paid: allPaid(runners),
    paymentStatus: registration.paymentStatus,
    runners,
  };
}

/** The family a check-in code names: 404 unknown (or forged), 409 a code of another season. */
export async function familyByCode(env: Env, db: Db, code: string, season = SEASON.year): Promise<DeskFamily> {
  const registration = await registrationByCode(db, code);
  if (!registration) throw new ApiError(404, CHECKIN_MSG.unknownCode);
  if (registration.season !== season) throw new ApiError(409, CHECKIN_MSG.otherSeason(registration.season, season));
  return familyByKind(env, db, "anmalan", registration.id);
}

/** Families of this season whose runner's name, e-mail or bib matches, at most 20, each with all its runners. */
export async function searchFamilies(db: Db, query: string, season = SEASON.year): Promise<DeskSearchHit[]> {
  const words = query.trim().split(/\s+/).filter(Boolean).slice(0, 5);
  const bib = words.length === 1 && /^\d{1,5}$/.test(words[0]!) ? Number(words[0]) : null;
  if (bib === null && words.join("").length < 2) throw new ApiError(400, CHECKIN_MSG.query);
  const rows = await searchParticipants(db, season, words, bib);
  const hits = new Map<string, DeskSearchHit>();
  const families: string[] = [];
  for (const row of rows) {
    const kind: DeskFamilyKind = row.registrationId ? "anmalan" : "kassa";
    const id = row.registrationId ?? row.id;
    const key = `${kind}:${id}`;
    if (!hits.has(key)) {
      if (hits.size >= 20) continue;
      hits.set(key, hit(kind, id, row));
      if (kind === "anmalan") families.push(id);
    }
    if (kind === "kassa") hits.get(key)!.runners.push(hitRunner(row));
  }
  // A registration's hit lists the whole family, not only the runner whose name matched.
  const whole = await Promise.all(families.map((id) => registrationParticipants(db, id)));
  families.forEach((id, i) => {
    const active = whole[i]!.filter((p) => p.deregisteredAt === null);
    hits.get(`anmalan:${id}`)!.runners.push(...active.map(hitRunner));
  });
  for (const h of hits.values()) h.paid = h.runners.length > 0 && h.runners.every((r) => r.paid);
  return [...hits.values()];
}

function hit(kind: DeskFamilyKind, id: string, row: SearchRow): DeskSearchHit {
  return {
    kind,
    id,
    email: row.email,
    phone: kind === "kassa" ? row.phone : null,
    paid: false,
    runners: [],
  };
}

function hitRunner(p: ParticipantForDesk): DeskSearchHit["runners"][number] {
  return {
    id: p.id,
    firstname: p.firstname,
    lastname: p.lastname,
    distance: p.distance,
    bib: p.bib,
    pickedUpAt: p.pickedUpAt,
    paid: p.paidBy !== null,
  };
}

/**
 * 'Hämtat' / 'Ångra' for runners of one family, one call per race with the same action id. A runner the race no
 * longer has is named with the distance it is on now (409) after the other races were done: the desk reloads the
 * family and the volunteer presses again (those already done answer `already`).
 */
export async function pickUp(env: Env, db: Db, request: PickupRequest, by: ChangeAuthor): Promise<PickupAnswer> {
  const byRace = new Map<string, string[]>();
  const companions: string[] = [];
  for (const r of request.runners) {
    if (r.raceId === null) companions.push(r.id);
    else byRace.set(r.raceId, [...(byRace.get(r.raceId) ?? []), r.id]);
  }
  const runners: DeskRunner[] = [];
  const already: string[] = [];
  const outcomes = new Set<PickupAnswer["outcome"]>();
  let moved: ApiError | null = null;
  if (companions.length > 0) {
    const marked = await markCompanionsPickedUp(
      db,
      [...new Set(companions)],
      request.pickedUp,
      request.at ?? Date.now(),
    );
    const missing = companions.find((id) => !marked.rows.some((p) => p.id === id));
    if (missing) throw new ApiError(409, CHECKIN_MSG.notInRace(await nameOf(db, missing)));
    runners.push(...marked.rows.map((p) => deskRunner(p)));
    already.push(...marked.already);
    outcomes.add(marked.changed ? (request.pickedUp ? "picked-up" : "undone") : "unchanged");
  }
  for (const [part, ids] of byRace) {
    try {
      const result = await runOnRace(
        env,
        part,
        {
          type: "pick-up",
          runnerIds: ids,
          pickedUp: request.pickedUp,
          action: { actionId: request.actionId, at: request.at },
        },
        by,
      );
      outcomes.add(result.outcome);
      already.push(...result.already);
      runners.push(...result.runners.map((r) => deskRunner(fromRecord(r), r)));
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
      moved = await whyNotInRace(db, part, ids, err);
    }
  }
  if (moved) throw moved;
  const outcome = outcomes.has("picked-up")
    ? "picked-up"
    : outcomes.has("undone")
      ? "undone"
      : outcomes.has("replayed") && outcomes.size === 1
        ? "replayed"
        : "unchanged";
  return { outcome, runners, already };
}

/** A race refused runners as not its own: which one left, and for which distance (D1 follows the race objects). */
async function whyNotInRace(db: Db, part: string, ids: string[], refusal: ApiError): Promise<ApiError> {
  for (const id of ids) {
    const now = await participantRace(db, id);
    if (!now) continue;
    const name = await nameOf(db, id);
    if (now.raceId && now.raceId !== part) return new ApiError(409, CHECKIN_MSG.moved(name, now.distance));
    if (!now.raceId) return new ApiError(409, CHECKIN_MSG.notInRace(name));
  }
  return refusal;
}

async function nameOf(db: Db, id: string): Promise<string> {
  const row = await db.$client
    .prepare("SELECT firstname || ' ' || lastname AS name FROM participants WHERE id = ?1")
    .bind(id)
    .first<{ name: string }>();
  return row?.name ?? "Löparen";
}

function fromRecord(r: RunnerRecord): ParticipantForDesk {
  return {
    id: r.id,
    registrationId: null,
    firstname: r.firstname,
    lastname: r.lastname,
    age: r.age,
    distance: r.distance,
    group: r.group,
    bib: r.bib,
    raceId: r.part,
    pickedUpAt: r.pickedUpAt ?? null,
    phone: null,
    // A runner in a race got there by being paid (or an admin put it there).
    paidBy: "race",
    deregisteredAt: null,
  };
}

/** A bib at the desk: the next free number of the runner's distance (only when it has none), or a typed one. */
export async function bibAtDesk(
  env: Env,
  raceId: string,
  runnerId: string,
  bib: number | "next",
  by: ChangeAuthor,
): Promise<DeskRunner> {
  const record = await runOnRace(env, raceId, { type: "bib-at-pickup", runnerId, bib }, by);
  return deskRunner(fromRecord(record), record);
}
