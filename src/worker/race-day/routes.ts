/**
 * Race day (admin spec §7, `/admin/api/races/*`, and the live sockets `{wsUrl}/race/{raceId}`, `{wsUrl}/races`).
 * The admin guard (app.ts) lets only admins in, the same-origin guard only the site itself (the spec's GETs
 * change state). Every change is one command (src/durable/race/commands.ts) run on the race's Durable Object, the
 * single writer; this file only validates, builds the command, names the actor (the admin's e-mail) and the device,
 * and shapes the spec's answers.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { ChangeAuthor } from "../../durable/race/types";
import {
  RACE_ACTOR_HEADER,
  RACE_HUB_NAME,
  SOCKET_EXPIRES_HEADER,
  SOCKET_SESSION_HEADER,
} from "../../shared/object-calls";
import { MAX_AGE } from "../../shared/age";
import { toGroup } from "../../shared/distances";
import { isRaceId, raceId } from "../../shared/race-id";
import type {
  BibAnswer,
  BibEntryResult,
  FinishAnswer,
  MoveResult,
  NotPickedUpResult,
  OfficialResult,
  RaceRecordAnswer,
  RapidAnswer,
  RapidTiming,
  ReviewDecision,
  RunnerAnswer,
  SlotResult,
  StartAnswer,
} from "../../shared/race-answers";
import type {
  BibChangeBody,
  BibEntryBody,
  ChangeDistance,
  DecisionBody,
  MainTimerBody,
  OfficialBody,
  RaceBody,
  ReviewItemKey,
  RunnerBody,
  RunnerPatch,
  SlotAssignBody,
} from "../../shared/race-requests";
import {
  DNS_NOT_PICKED_UP_WORD,
  MAX_RETIMES,
  isDeviceId,
  isReviewId,
  isTapId,
  RESET_WORD,
  runnerIdFromSort,
  type RaceAuditEvent,
  type RaceRecord,
  type ReviewRecord,
  type RunnerRecord,
} from "../../shared/race-protocol";
import { isIsoDate } from "../../shared/stockholm";
import { database } from "../db/client";
import { createRace, getRace, raceRecordFromRow, reserveRunnerId } from "./races-db";
import type { AppEnv, SessionInfo } from "../env";
import { badRequest, conflict, notFound } from "../lib/errors";
import { isSiteOrigin } from "../middleware/same-origin";
import { validate, wireSchema } from "../middleware/validate";
import { answered, changeRunnerDistance, raceStub, runOnRace } from "./race-runners";
import { deleteRacePhotos } from "./photo-objects";

export const raceDayRoutes = new Hono<AppEnv>();
export const raceSocketRoutes = new Hono<AppEnv>();

// The families' results mails (issue 28, item 3: 'Officiella' and each correction after it) are sent by the race
// object itself, whichever call changed it (src/durable/race/results-mail.ts), not by these routes.

const MSG = {
  race: "Loppet finns inte",
  runner: "Löparen finns inte i loppet.",
  bib: "Startnummer måste vara ett positivt heltal.",
  tap: "Ogiltigt tryck-id.",
  at: "Ogiltig tidpunkt.",
  device: "Ogiltigt enhets-id.",
  date: "felaktigt datum",
  distance: "felaktig sträcka",
  hundreds: "sträckan måste anges i hela hundra meter",
  age: "felaktig ålder",
  name: "Ange namn",
  group: "Ogiltig grupp (Ingen, Dam eller Herr).",
  company: "Föreningens namn är för långt.",
  typedBib: "Startnummer måste vara ett heltal från 1 till 99999.",
  entry: "Ogiltigt id för startnumret.",
  slot: "Måltiden finns inte.",
} as const;

const raceParam = z.object({ raceId: z.string().max(64).refine(isRaceId, MSG.race) });
const runnerParam = raceParam.extend({
  sort: z
    .string()
    .max(120)
    .refine((s) => runnerIdFromSort(s) !== null, MSG.runner),
});

/** Every race-day write may name the device it came from (kept in the race's audit trail). */
const deviceQuery = z.object({ device: z.string().refine(isDeviceId, MSG.device).optional() });
/**
 * Start and finish taps: the id made on the device, the tap's moment on the server's clock (epoch ms), and the
 * device's clock-sync error (ms; a tap ahead of the server by less than it is clamped to now).
 */
const tapQuery = deviceQuery.extend({
  tap: z.string().refine(isTapId, MSG.tap).optional(),
  at: z
    .string()
    .regex(/^\d{1,15}$/, MSG.at)
    .transform(Number)
    .optional(),
  err: z
    .string()
    .regex(/^\d{1,9}$/, "Ogiltig klockfelmarginal.")
    .transform(Number)
    .optional(),
  rerecord: z.enum(["1", "0", "true", "false"], { error: "Ogiltigt värde för rerecord." }).optional(),
});

function author(c: { var: AppEnv["Variables"] }, device: string | undefined): ChangeAuthor {
  return { actor: c.var.admin?.email ?? "okänd", device };
}

/** The author, and whether the organiser decided with the finish photo open (Målfoto: `photo: true`). */
function decidedBy(c: { var: AppEnv["Variables"] }, device: string | undefined, photo: true | undefined): ChangeAuthor {
  return photo ? { ...author(c, device), fromPhoto: true } : author(c, device);
}

function runnerId(sort: string): string {
  const id = runnerIdFromSort(sort);
  if (!id) throw notFound(MSG.runner);
  return id;
}

raceDayRoutes.get("/start/:raceId", validate("param", raceParam), validate("query", tapQuery), async (c) => {
  const { raceId } = c.req.valid("param");
  const { tap, at, err, device } = c.req.valid("query");
  const result = await runOnRace(c.env, raceId, { type: "start", tap: { tapId: tap, at, err } }, author(c, device));
  // 202: the start is on the review list ('Att granska'); a person decides.
  if (result.outcome === "review") return c.json(result satisfies StartAnswer, 202);
  return c.json({ started: result.race.started, race: result.race, outcome: result.outcome } satisfies StartAnswer);
});

raceDayRoutes.get("/finish/:raceId/:sort", validate("param", runnerParam), validate("query", tapQuery), async (c) => {
  const { raceId, sort } = c.req.valid("param");
  const { tap, at, err, device, rerecord } = c.req.valid("query");
  const result = await runOnRace(
    c.env,
    raceId,
    {
      type: "finish",
      runnerId: runnerId(sort),
      tap: { tapId: tap, at, err, rerecord: rerecord === "1" || rerecord === "true" },
    },
    author(c, device),
  );
  // 202: the tap is on the review list ('Att granska'): the phone drops it from its queue, a person decides.
  return c.json(result satisfies FinishAnswer, result.outcome === "review" ? 202 : 200);
});

raceDayRoutes.get(
  "/restore/:raceId/:sort",
  validate("param", runnerParam),
  validate("query", deviceQuery),
  async (c) => {
    const { raceId, sort } = c.req.valid("param");
    const by = author(c, c.req.valid("query").device);
    const runner = await runOnRace(c.env, raceId, { type: "undo-finish", runnerId: runnerId(sort) }, by);
    return c.json({ runner } satisfies RunnerAnswer);
  },
);

const bibParam = runnerParam.extend({
  bib: z.string().regex(/^(\d{1,5}|next)$/, MSG.bib),
});

raceDayRoutes.get(
  "/register-bib/:raceId/:sort/:bib",
  validate("param", bibParam),
  validate("query", deviceQuery),
  async (c) => {
    const { raceId, sort, bib } = c.req.valid("param");
    const number = bib === "next" ? "next" : Number(bib);
    const by = author(c, c.req.valid("query").device);
    const runner = await runOnRace(c.env, raceId, { type: "register-bib", runnerId: runnerId(sort), bib: number }, by);
    return c.json({ runner } satisfies RunnerAnswer);
  },
);

raceDayRoutes.get(
  "/dns/:raceId/:sort/:mark",
  validate("param", runnerParam.extend({ mark: z.enum(["on", "off"], { error: "Ange on eller off." }) })),
  validate("query", deviceQuery),
  async (c) => {
    const { raceId, sort, mark } = c.req.valid("param");
    const by = author(c, c.req.valid("query").device);
    const runner = await runOnRace(
      c.env,
      raceId,
      { type: "set-dns", runnerId: runnerId(sort), dns: mark === "on" },
      by,
    );
    return c.json({ runner } satisfies RunnerAnswer);
  },
);

/**
 * 'Markera ej hämtade som DNS': after the start, every runner still waiting who never picked up the bib, in one
 * confirmed action (the word DNS, as a reset's APRAKET); each mark is undone per runner with the DNS call above.
 */
raceDayRoutes.get(
  "/dns-not-picked-up/:raceId",
  validate("param", raceParam),
  validate(
    "query",
    deviceQuery.extend({
      confirm: z.literal(DNS_NOT_PICKED_UP_WORD, {
        error: `Skriv ${DNS_NOT_PICKED_UP_WORD} för att markera dem som inte hämtat som DNS.`,
      }),
    }),
  ),
  async (c) => {
    const by = author(c, c.req.valid("query").device);
    const marked = await runOnRace(c.env, c.req.valid("param").raceId, { type: "dns-not-picked-up" }, by);
    return c.json(marked satisfies NotPickedUpResult);
  },
);

raceDayRoutes.get("/end/:raceId", validate("param", raceParam), validate("query", deviceQuery), async (c) => {
  const by = author(c, c.req.valid("query").device);
  const race = await runOnRace(c.env, c.req.valid("param").raceId, { type: "end" }, by);
  return c.json({ race } satisfies RaceRecordAnswer);
});

raceDayRoutes.get(
  "/reset/:raceId",
  validate("param", raceParam),
  // Spec: a reset is confirmed by typing the word; the server checks it too, so no call resets by accident.
  validate(
    "query",
    deviceQuery.extend({
      confirm: z.literal(RESET_WORD, { error: `Skriv ${RESET_WORD} för att återställa loppet.` }),
    }),
  ),
  async (c) => {
    const by = author(c, c.req.valid("query").device);
    const raceId = c.req.valid("param").raceId;
    const race = await runOnRace(c.env, raceId, { type: "reset" }, by);
    // Målfoto: the race has removed its photos' records; their objects go now. One that fails to go is never shown
    // (finish-photos.ts reads only what the race keeps) and the cron deletes it after race day's 30 days.
    await deleteRacePhotos(c.env, raceId).catch((err: unknown) => console.error("finish photos not deleted", err));
    return c.json({ race } satisfies RaceRecordAnswer);
  },
);

// ——— 'Att granska': taps the race could not take as they were; an admin applies or discards each ———

/**
 * What the organiser confirmed on the phone for an action that re-times runners it does not name: each runner's
 * new finish (src/durable/race/rules/retime.ts). Without it such an action is a 409 whose `retimes` list the phone
 * shows; nothing changes until it comes back with exactly that list.
 */
const retimeConfirm = z
  .array(
    z.object({
      runnerId: z.string().min(1).max(120),
      to: z.union([z.null(), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
    }),
    { error: "Ogiltig bekräftelse av nya tider." },
  )
  .max(MAX_RETIMES, "Ogiltig bekräftelse av nya tider.");
/** `photo: true`: the organiser decided with the item's or slot's finish photo open (Målfoto; the log says so). */
const confirmBody = wireSchema<DecisionBody>()(
  z.object({ confirm: retimeConfirm.optional(), photo: z.literal(true).optional() }, { error: "Ogiltig förfrågan." }),
);

const reviewParam = wireSchema<ReviewItemKey>()(
  raceParam.extend({
    itemId: z.string().refine(isReviewId, "Det finns inget sådant att granska."),
  }),
);

raceDayRoutes.get("/review/:raceId", validate("param", raceParam), async (c) =>
  c.json((await answered(raceStub(c.env, c.req.valid("param").raceId).reviews())) satisfies ReviewRecord[]),
);

raceDayRoutes.post(
  "/review/:raceId/:itemId/apply",
  validate("param", reviewParam),
  validate("query", deviceQuery),
  validate("json", confirmBody),
  async (c) => {
    const { raceId, itemId } = c.req.valid("param");
    const { confirm, photo } = c.req.valid("json");
    const by = decidedBy(c, c.req.valid("query").device, photo);
    const decision = await runOnRace(c.env, raceId, { type: "apply-review", reviewId: itemId, confirm }, by);
    return c.json(decision satisfies ReviewDecision);
  },
);

raceDayRoutes.post(
  "/review/:raceId/:itemId/discard",
  validate("param", reviewParam),
  validate("query", deviceQuery),
  validate("json", confirmBody),
  async (c) => {
    const { raceId, itemId } = c.req.valid("param");
    const by = decidedBy(c, c.req.valid("query").device, c.req.valid("json").photo);
    const command = { type: "discard-review", reviewId: itemId, confirm: c.req.valid("json").confirm } as const;
    return c.json((await runOnRace(c.env, raceId, command, by)) satisfies ReviewDecision);
  },
);

// ——— rapid timing: 'Mål!' slots, bibs typed in finish order, slots by hand, official results (issue 26) ———

/** 'Mål!': a finish moment without a runner. The same query as a finish tap (the tap id is required). */
raceDayRoutes.post(
  "/rapid/:raceId",
  validate("param", raceParam),
  validate(
    "query",
    tapQuery.omit({ rerecord: true }).extend({ tap: z.string({ error: MSG.tap }).refine(isTapId, MSG.tap) }),
  ),
  async (c) => {
    const { tap, at, err, device } = c.req.valid("query");
    const result = await runOnRace(
      c.env,
      c.req.valid("param").raceId,
      { type: "rapid-tap", tap: { tapId: tap, at, err } },
      author(c, device),
    );
    // 202: on the review list ('Att granska'): the phone drops it from its queue, a person decides.
    return c.json(result satisfies RapidAnswer, result.outcome === "review" ? 202 : 200);
  },
);

/** A bib typed at the finish: a whole number 1–99999 (a digit string from a keypad is taken too). */
const typedBib = z
  .union(
    [
      z.number({ error: MSG.typedBib }),
      z
        .string({ error: MSG.typedBib })
        .trim()
        .regex(/^\d{1,5}$/, MSG.typedBib),
    ],
    {
      error: MSG.typedBib,
    },
  )
  .transform(Number)
  .refine((n) => Number.isInteger(n) && n >= 1 && n <= 99_999, MSG.typedBib);

const entryParam = raceParam.extend({ entryId: z.string().refine(isTapId, MSG.entry) });
const slotParam = raceParam.extend({ tapId: z.string().refine(isTapId, MSG.slot) });

raceDayRoutes.post(
  "/bibs/:raceId",
  validate("param", raceParam),
  validate("query", deviceQuery),
  validate(
    "json",
    wireSchema<BibEntryBody>()(
      z.object(
        {
          entry: z.string({ error: MSG.entry }).refine(isTapId, MSG.entry),
          bib: typedBib,
          // When it was typed (server clock): one typed before the race's start goes to 'Att granska'.
          at: z.number({ error: MSG.at }).int(MSG.at).min(1, MSG.at).max(999_999_999_999_999, MSG.at).optional(),
        },
        { error: MSG.typedBib },
      ),
    ),
  ),
  async (c) => {
    const { entry, bib, at } = c.req.valid("json");
    const by = author(c, c.req.valid("query").device);
    const command = { type: "enter-bib", entryId: entry, bib, at } as const;
    const result = await runOnRace(c.env, c.req.valid("param").raceId, command, by);
    // 202: on the review list ('Att granska'): the phone drops it from its queue, a person decides.
    return c.json(result satisfies BibAnswer, result.outcome === "review" ? 202 : 200);
  },
);

raceDayRoutes.post(
  "/bibs/:raceId/:entryId/change",
  validate("param", entryParam),
  validate("query", deviceQuery),
  validate(
    "json",
    wireSchema<BibChangeBody>()(
      z.object({ bib: typedBib, confirm: retimeConfirm.optional() }, { error: MSG.typedBib }),
    ),
  ),
  async (c) => {
    const { raceId, entryId } = c.req.valid("param");
    const by = author(c, c.req.valid("query").device);
    const { bib, confirm } = c.req.valid("json");
    const result = await runOnRace(c.env, raceId, { type: "change-bib-entry", entryId, bib, confirm }, by);
    return c.json(result satisfies BibEntryResult);
  },
);

for (const action of ["remove", "restore"] as const) {
  raceDayRoutes.post(
    `/bibs/:raceId/:entryId/${action}`,
    validate("param", entryParam),
    validate("query", deviceQuery),
    validate("json", confirmBody),
    async (c) => {
      const { raceId, entryId } = c.req.valid("param");
      const by = author(c, c.req.valid("query").device);
      const { confirm } = c.req.valid("json");
      const result = await runOnRace(c.env, raceId, { type: `${action}-bib-entry`, entryId, confirm }, by);
      return c.json(result satisfies BibEntryResult);
    },
  );
}

/** Rapid timing as the race sees it now: the merged, numbered slots and who each one is. */
raceDayRoutes.get("/slots/:raceId", validate("param", raceParam), async (c) =>
  c.json((await answered(raceStub(c.env, c.req.valid("param").raceId).rapidTiming())) satisfies RapidTiming),
);

/** The slot holding tap `tapId` is this runner: by bib (typed) or by the runner's sort (a tile tapped). */
raceDayRoutes.post(
  "/slots/:raceId/:tapId/assign",
  validate("param", slotParam),
  validate("query", deviceQuery),
  validate(
    "json",
    wireSchema<SlotAssignBody>()(
      z.union(
        [
          z.object({ bib: typedBib, confirm: retimeConfirm.optional(), photo: z.literal(true).optional() }),
          z.object({
            sort: z
              .string()
              .max(120)
              .refine((s) => runnerIdFromSort(s) !== null, MSG.runner),
            confirm: retimeConfirm.optional(),
            photo: z.literal(true).optional(),
          }),
        ],
        { error: "Ange startnummer eller löpare." },
      ),
    ),
  ),
  async (c) => {
    const { raceId, tapId } = c.req.valid("param");
    const body = c.req.valid("json");
    const target = "bib" in body ? { bib: body.bib } : { runnerId: runnerId(body.sort) };
    const by = decidedBy(c, c.req.valid("query").device, body.photo);
    const command = { type: "assign-slot", tapId, target, confirm: body.confirm } as const;
    return c.json((await runOnRace(c.env, raceId, command, by)) satisfies SlotResult);
  },
);

for (const action of ["unassign", "discard", "restore"] as const) {
  raceDayRoutes.post(
    `/slots/:raceId/:tapId/${action}`,
    validate("param", slotParam),
    validate("query", deviceQuery),
    validate("json", confirmBody),
    async (c) => {
      const { raceId, tapId } = c.req.valid("param");
      const by = decidedBy(c, c.req.valid("query").device, c.req.valid("json").photo);
      const command = { type: `${action}-slot`, tapId, confirm: c.req.valid("json").confirm } as const;
      return c.json((await runOnRace(c.env, raceId, command, by)) satisfies SlotResult);
    },
  );
}

/** The device whose time a finish two phones timed takes (null: the earliest tap's). */
raceDayRoutes.post(
  "/main-timer/:raceId",
  validate("param", raceParam),
  validate("query", deviceQuery),
  validate(
    "json",
    wireSchema<MainTimerBody>()(
      z.object({ mainTimer: z.union([z.null(), z.string().refine(isDeviceId, MSG.device)], { error: MSG.device }) }),
    ),
  ),
  async (c) => {
    const by = author(c, c.req.valid("query").device);
    const device = c.req.valid("json").mainTimer;
    const race = await runOnRace(c.env, c.req.valid("param").raceId, { type: "set-main-timer", device }, by);
    return c.json({ race } satisfies RaceRecordAnswer);
  },
);

/**
 * 'Officiella': the results become official (only on an ended race; `{confirm: true}` past open review items).
 * The answer `{outcome: 'official'}` comes once per race: a second call is a 409. Then the race object mails the
 * families their runners' results from its alarm (src/durable/race/results-mail.ts; once per family and race).
 */
raceDayRoutes.post(
  "/official/:raceId",
  validate("param", raceParam),
  validate("query", deviceQuery),
  validate(
    "json",
    wireSchema<OfficialBody>()(
      z.strictObject(
        { confirm: z.boolean({ error: "Ange om resultaten ändå ska bli officiella." }).optional() },
        { error: "Ogiltig förfrågan." },
      ),
    ),
  ),
  async (c) => {
    const by = author(c, c.req.valid("query").device);
    const confirm = c.req.valid("json").confirm === true;
    const official = await runOnRace(c.env, c.req.valid("param").raceId, { type: "mark-official", confirm }, by);
    return c.json(official satisfies OfficialResult);
  },
);

/** A re-recorded runner's previous time, back from the audit trail in one action. */
raceDayRoutes.post(
  "/restore-time/:raceId/:seq",
  validate(
    "param",
    raceParam.extend({
      seq: z
        .string()
        .regex(/^\d{1,12}$/, "Ogiltig logghändelse.")
        .transform(Number),
    }),
  ),
  validate("query", deviceQuery),
  async (c) => {
    const { raceId, seq } = c.req.valid("param");
    const runner = await runOnRace(
      c.env,
      raceId,
      { type: "restore-time", seq },
      author(c, c.req.valid("query").device),
    );
    return c.json({ runner } satisfies RunnerAnswer);
  },
);

raceDayRoutes.get(
  "/change-distance/:targetRaceId/:raceId/:sort",
  validate(
    "param",
    wireSchema<ChangeDistance>()(runnerParam.extend({ targetRaceId: z.string().max(64).refine(isRaceId, MSG.race) })),
  ),
  validate("query", deviceQuery),
  async (c) => {
    const { targetRaceId, raceId, sort } = c.req.valid("param");
    const moved = await changeRunnerDistance(
      c.env,
      raceId,
      targetRaceId,
      runnerId(sort),
      author(c, c.req.valid("query").device),
    );
    return c.json(moved satisfies MoveResult);
  },
);

raceDayRoutes.get(
  "/audit/:raceId",
  validate("param", raceParam),
  validate(
    "query",
    z.object({
      limit: z
        .string()
        .regex(/^\d{1,4}$/, "Ogiltigt antal.")
        .transform(Number)
        .optional(),
    }),
  ),
  async (c) => {
    const stub = raceStub(c.env, c.req.valid("param").raceId);
    return c.json((await answered(stub.recentEvents(c.req.valid("query").limit ?? 500))) satisfies RaceAuditEvent[]);
  },
);

/** A number, or a string of digits as a form field gives it; anything else is `message`. */
function wholeNumber(message: string) {
  return z.unknown().transform((v, ctx) => {
    const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d{1,9}(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (Number.isFinite(n)) return n;
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  });
}

/** Spec §5: the create form's three messages; the server says the same. */
const createRaceBody = wireSchema<RaceBody>()(
  z.object(
    {
      // raceId() takes years 2000–2099 (race-YYMMDD-NN); anything else is not a date this site can run a race on.
      date: z.string({ error: MSG.date }).refine((d) => isIsoDate(d) && d.startsWith("20"), MSG.date),
      distance: wholeNumber(MSG.distance).refine(
        (m) => Number.isInteger(m) && m > 0 && m % 100 === 0 && m <= 999_900,
        MSG.hundreds,
      ),
      openForReg: z.boolean({ error: "Ange om loppet är öppet för anmälan." }).optional().default(false),
    },
    { error: "Ogiltigt lopp." },
  ),
);

raceDayRoutes.post(
  "/create-race/:raceId",
  validate("param", z.object({ raceId: z.string().max(64) })),
  validate("json", createRaceBody),
  async (c) => {
    const { date, distance, openForReg } = c.req.valid("json");
    const expected = raceId(date, distance);
    if (c.req.valid("param").raceId !== expected) {
      throw badRequest(`Loppets id ska vara ${expected} för det datumet och den sträckan.`);
    }
    const db = database(c.env.DB);
    if (!(await createRace(db, { part: expected, date, distance, openForReg }))) {
      throw conflict("Loppet finns redan.");
    }
    const row = (await getRace(db, expected))!;
    const stub = raceStub(c.env, expected);
    await answered(stub.init({ part: row.part, date, distance, openForReg }, author(c, undefined)));
    const race = raceRecordFromRow(row);
    await c.env.RACE_HUB.getByName(RACE_HUB_NAME)
      .raceChanged(race)
      .catch((err: unknown) => console.warn("race hub notification failed", err));
    return c.json(race satisfies RaceRecord);
  },
);

const text = (message: string, max = 100) => z.string({ error: message }).trim().max(max, message);
/** 0, null or '' (an empty form field) is no number (spec: "0 or missing means no number"). */
const bibField = z
  .union([z.null(), z.literal(""), wholeNumber(MSG.bib)])
  .transform((v) => (v === null || v === "" || v === 0 ? null : v))
  .refine((v) => v === null || (Number.isInteger(v) && v > 0 && v <= 99_999), MSG.bib);
const ageField = wholeNumber(MSG.age).refine((a) => Number.isInteger(a) && a >= 0 && a <= MAX_AGE, MSG.age);
const groupField = z
  .string({ error: MSG.group })
  .transform((g, ctx) => toGroup(g) ?? (ctx.addIssue({ code: "custom", message: MSG.group }), z.NEVER));

const runnerFields = {
  firstname: text(MSG.name).pipe(z.string().min(1, MSG.name)),
  lastname: text(MSG.name).pipe(z.string().min(1, MSG.name)),
  age: ageField,
  bib: bibField,
  group: groupField,
  company: text(MSG.company),
};

const addRunnerBody = wireSchema<RunnerBody>()(
  z.object(
    {
      ...runnerFields,
      bib: bibField.optional(),
      group: groupField.optional(),
      company: text(MSG.company).optional(),
    },
    { error: "Ogiltig deltagare." },
  ),
);

raceDayRoutes.post("/add-runner/:raceId", validate("param", raceParam), validate("json", addRunnerBody), async (c) => {
  const body = c.req.valid("json");
  const part = c.req.valid("param").raceId;
  const id = crypto.randomUUID();
  // Reserved before the race (and so anyone reading its public records) has it: no family can save this id.
  await reserveRunnerId(database(c.env.DB), id, `race:${part}`, c.var.clock.now());
  const runner = {
    id,
    owner: "race" as const,
    firstname: body.firstname,
    lastname: body.lastname,
    age: body.age,
    company: body.company ?? "",
    group: body.group ?? "Ingen",
    bib: body.bib ?? null,
  };
  // Added on the race screen: after the start, checked in as they are added (AddRunnerOptions.onSite).
  const added = await runOnRace(
    c.env,
    part,
    { type: "add-runner", runner, options: { onSite: true } },
    author(c, undefined),
  );
  return c.json(added.runner satisfies RunnerRecord);
});

const updateRunnerBody = wireSchema<RunnerPatch>()(
  z.object(
    {
      firstname: runnerFields.firstname.optional(),
      lastname: runnerFields.lastname.optional(),
      age: ageField.optional(),
      bib: bibField.optional(),
      group: groupField.optional(),
      company: text(MSG.company).optional(),
    },
    { error: "Ogiltig ändring." },
  ),
);

raceDayRoutes.post(
  "/update-runner/:raceId/:sort",
  validate("param", runnerParam),
  validate("json", updateRunnerBody),
  async (c) => {
    const { raceId, sort } = c.req.valid("param");
    const body = c.req.valid("json");
    const patch = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const command = { type: "update-runner", runnerId: runnerId(sort), patch } as const;
    return c.json((await runOnRace(c.env, raceId, command, author(c, undefined))) satisfies RunnerRecord);
  },
);

// ——— live sockets: admins only, from the site itself (browsers send Origin on socket upgrades) ———

/** Why a socket upgrade is refused, or null when it may go on to its object. */
function socketRefusal(
  req: Request,
  env: Env,
  admin: AppEnv["Variables"]["admin"],
): { status: 401 | 403 | 426; error: string } | null {
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return { status: 426, error: "Förväntade en WebSocket-anslutning" };
  }
  const origin = req.headers.get("origin");
  if (origin && !isSiteOrigin(origin, req, env.PUBLIC_ORIGIN)) {
    return { status: 403, error: "Anslutningen kom inte från sajten." };
  }
  if (!admin) return { status: 401, error: "Inte inloggad som admin" };
  return null;
}

raceSocketRoutes.get("/race/:raceId", async (c) => {
  const refused = socketRefusal(c.req.raw, c.env, c.var.admin);
  if (refused) return c.json({ error: refused.error }, refused.status);
  const part = c.req.param("raceId");
  if (!isRaceId(part)) throw notFound(MSG.race);
  // Returned as is: the 101 response's headers are immutable, so no middleware may touch it.
  return c.env.RACE.getByName(part).fetch(socketRequest(c.req.raw, c.var.admin!));
});

raceSocketRoutes.get("/races", async (c) => {
  const refused = socketRefusal(c.req.raw, c.env, c.var.admin);
  if (refused) return c.json({ error: refused.error }, refused.status);
  return c.env.RACE_HUB.getByName(RACE_HUB_NAME).fetch(socketRequest(c.req.raw, c.var.admin!));
});

/** The upgrade as the object sees it: who opened it, and the session it follows (src/durable/socket-sessions.ts). */
function socketRequest(raw: Request, admin: SessionInfo): Request {
  const headers = new Headers(raw.headers);
  headers.set(RACE_ACTOR_HEADER, admin.email);
  headers.set(SOCKET_SESSION_HEADER, admin.id);
  headers.set(SOCKET_EXPIRES_HEADER, String(admin.expiresAt));
  return new Request(raw.url, { headers });
}
