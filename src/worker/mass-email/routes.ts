/**
 * Mass e-mail (admin area §2, §7; the admin guard in app.ts covers /admin/api/*): the spec's six calls (count,
 * list and send, for previous runners and for this season's runners), plus the mailing's progress and resuming
 * an interrupted mailing. A send stores the mailing and its recipients, puts one queue message per recipient on
 * MAIL_QUEUE and answers at once with the mailing's id; the queue consumer (src/worker/mass-email/mailings.ts) sends.
 *
 * Mailings left waiting or failed, whoever made them: `GET /admin/api/mailings/waiting` lists them for the mass
 * e-mail screens, each mass mailing on its own line and the results mails (one mailing per family,
 * registration/results-mails.ts) one line per race; `POST /admin/api/mailings/{id}/resume` resumes one mailing and
 * `POST /admin/api/mailings/results/{race}/resume` all of a race's results mails. A resume while another resume of
 * the same mailing runs is refused with 409 (its lease: mailings.ts `resumeMailings`); one after another, the
 * queue's claim per recipient keeps anyone from getting a second copy.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { isRaceId } from "../../shared/race-id";
import { RESUME_MSG } from "../../shared/mailings";
import { SEASON } from "../../shared/season";
import { audit } from "../db/audit";
import { database } from "../db/client";
import {
  audienceRecipients,
  createMailing,
  findMailing,
  mailingProgress,
  markHanded,
  sameMailingSince,
  waitingMailings,
  waitingResultsMailings,
  type Audience,
} from "./mailings-db";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "../lib/errors";
import { enqueueRecipients, resumeMailings, type MailMessage } from "./mailings";
import { validate, wireSchema } from "../middleware/validate";
import type { MailingProgress, MailingResumed, MailingStarted } from "../../shared/api-answers";
import type { MailingBody, Recipient, RecipientCount } from "../../shared/mailings";

export const massEmailRoutes = new Hono<AppEnv>();
export const mailingRoutes = new Hono<AppEnv>();

export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 20_000;
/** The same mailing to the same audience again within this time is a double click or a replayed request. */
export const DOUBLE_SEND_WINDOW_MS = 10 * 60_000;

export const MSG = {
  /** Spec §5, quoted as written. */
  required: "Please fill in both subject and message",
  subjectLong: `Ämnet får vara högst ${SUBJECT_MAX} tecken.`,
  subjectLine: "Ämnet ska vara en rad: utan radbrytningar eller andra styrtecken.",
  messageLong: "Meddelandet får vara högst 20 000 tecken.",
  noRecipients: "Det finns inga mottagare att skicka till.",
  doubleSend: "Samma utskick skickades nyss till samma mottagare. Följ det pågående utskicket i stället.",
  missing: "Utskicket finns inte.",
} as const;

const sendBody = wireSchema<MailingBody>()(
  z.object(
    {
      // A subject is one header line: a line break in it could add headers to the mail (header injection).
      subject: z
        .string({ error: MSG.required })
        .refine((s) => !SUBJECT_FORBIDDEN.test(s), MSG.subjectLine)
        .trim()
        .min(1, MSG.required)
        .max(SUBJECT_MAX, MSG.subjectLong),
      message: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(MESSAGE_MAX, MSG.messageLong),
    },
    { error: MSG.required },
  ),
);

/** CR, LF and the other control characters, and the Unicode line and paragraph separators. */
const SUBJECT_FORBIDDEN = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

const idParam = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, MSG.missing)
    .transform(Number),
});

const raceParam = z.object({ race: z.string().max(64).refine(isRaceId, RESUME_MSG.badRace) });

function recipients(c: Context<AppEnv>, audience: Audience) {
  return audienceRecipients(database(c.env.DB), audience, SEASON.year);
}

async function send(c: Context<AppEnv>, audience: Audience, body: z.infer<typeof sendBody>) {
  const db = database(c.env.DB);
  const now = c.var.clock.now();
  const actor = c.var.admin?.email ?? "okänd";
  // A quick answer to a plain double click; the guard itself is createMailing's unique claim, which two clicks
  // arriving at the same moment (both past this read) cannot both get.
  if (await sameMailingSince(db, { audience, ...body }, now - DOUBLE_SEND_WINDOW_MS)) {
    throw new ApiError(409, MSG.doubleSend);
  }
  const list = await recipients(c, audience);
  if (list.length === 0) throw new ApiError(409, MSG.noRecipients);
  const id = await createMailing(
    db,
    { audience, ...body, createdBy: actor, recipients: list },
    now,
    DOUBLE_SEND_WINDOW_MS,
  );
  if (id === null) throw new ApiError(409, MSG.doubleSend);
  await audit(
    db,
    { actor, action: "mailing.create", subject: String(id), detail: { audience, total: list.length } },
    now,
  );
  try {
    const emails = list.map((r) => r.email);
    await enqueueRecipients(c.env.MAIL_QUEUE as Queue<MailMessage>, id, emails);
    await markHanded(db, [id], now);
  } catch (err) {
    // The mailing and its recipients are stored: the progress shows it stalled, and resuming enqueues the rest.
    console.error("mailing enqueue failed", id, err);
  }
  return c.json({ id, totalRecipients: list.length } satisfies MailingStarted, 202);
}

massEmailRoutes.get("/previous-runners-count", async (c) =>
  c.json({ count: (await recipients(c, "previous")).length } satisfies RecipientCount),
);

massEmailRoutes.get("/previous-runners", async (c) =>
  c.json((await recipients(c, "previous")).map(({ name, email }): Recipient => ({ name, email }))),
);

massEmailRoutes.post("/send-email-previous-runners", validate("json", sendBody), (c) =>
  send(c, "previous", c.req.valid("json")),
);

massEmailRoutes.get("/get_current_runners_count_handler", async (c) =>
  c.json({ count: (await recipients(c, "current")).length } satisfies RecipientCount),
);

massEmailRoutes.get("/get_current_runners_handler", async (c) =>
  c.json(
    (await recipients(c, "current")).map(({ name, email, race }): Recipient => ({ name, email, race: race ?? "" })),
  ),
);

massEmailRoutes.post("/send-email-current-runners", validate("json", sendBody), (c) =>
  send(c, "current", c.req.valid("json")),
);

// Before "/admin/api/mailings/:id": "waiting" is no id.
mailingRoutes.get("/waiting", async (c) => c.json(await waitingMailings(database(c.env.DB))));

mailingRoutes.get("/:id", validate("param", idParam), async (c) => {
  const db = database(c.env.DB);
  const mailing = await findMailing(db, c.req.valid("param").id);
  if (!mailing) throw notFound(MSG.missing);
  return c.json((await mailingProgress(db, mailing)) satisfies MailingProgress);
});

mailingRoutes.post("/:id/resume", validate("param", idParam), async (c) => {
  const db = database(c.env.DB);
  const mailing = await findMailing(db, c.req.valid("param").id);
  if (!mailing) throw notFound(MSG.missing);
  const now = c.var.clock.now();
  const result = await resumeMailings(c.env, db, [mailing.id], now);
  if (!result) throw new ApiError(409, RESUME_MSG.busy);
  await audit(
    db,
    {
      actor: c.var.admin?.email ?? "okänd",
      action: "mailing.resume",
      subject: String(mailing.id),
      detail: { ...result },
    },
    now,
  );
  return c.json({ ...result, progress: await mailingProgress(db, mailing) } satisfies MailingResumed);
});

mailingRoutes.post("/results/:race/resume", validate("param", raceParam), async (c) => {
  const db = database(c.env.DB);
  const { race } = c.req.valid("param");
  const ids = await waitingResultsMailings(db, race);
  if (ids.length === 0) throw notFound(RESUME_MSG.noneWaiting);
  const now = c.var.clock.now();
  const result = await resumeMailings(c.env, db, ids, now);
  if (!result) throw new ApiError(409, RESUME_MSG.busy);
  await audit(
    db,
    {
      actor: c.var.admin?.email ?? "okänd",
      action: "mailing.resume-results",
      subject: race,
      detail: { ...result, mailings: ids.length },
    },
    now,
  );
  return c.json(result);
});
