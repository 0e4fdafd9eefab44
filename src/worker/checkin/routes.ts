/**
 * The bib desk's calls (`/admin/api/checkin/*`, admins only, from the site itself: app.ts) and the check-in QR
 * image (`/api/checkin-qr/{code}.png|svg`, public: it draws the code it is given and looks nothing up). The rules
 * live in the race objects (src/durable/race/rules/checkin.ts) and in ./checkin.ts; this file validates and names
 * the actor (the admin's e-mail) and the device.
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  CHECKIN_MSG,
  MAX_DESK_RUNNERS,
  parseCheckinCode,
  type FamilyKey,
  type GiveBib,
  type PickupRequest,
} from "../../shared/checkin";
import { isRaceId } from "../../shared/race-id";
import { isDeviceId, isTapId } from "../../shared/race-protocol";
import type { ChangeAuthor } from "../../durable/race/types";
import { database } from "../db/client";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { validate, wireSchema } from "../middleware/validate";
import { bibAtDesk, familyByCode, familyByKind, pickUp, searchFamilies } from "./checkin";
import { checkinQrPng, checkinQrSvg } from "./checkin-qr";
import { participantRace } from "../db/checkin-db";

export const checkinRoutes = new Hono<AppEnv>();
export const checkinQrRoutes = new Hono<AppEnv>();

const MSG = {
  runner: "Löparen finns inte i loppet.",
  race: "Loppet finns inte",
  device: "Ogiltigt enhets-id.",
  action: "Ogiltigt åtgärds-id.",
  at: "Ogiltig tidpunkt.",
  bib: "Startnummer måste vara ett heltal från 1 till 99999, eller next.",
  body: "Ogiltig incheckning.",
} as const;

const id = z.string().min(1).max(100);
const device = z.string().refine(isDeviceId, MSG.device).optional();

function author(c: { var: AppEnv["Variables"] }, deviceId: string | undefined): ChangeAuthor {
  return { actor: c.var.admin?.email ?? "okänd", device: deviceId };
}

checkinRoutes.get("/code/:code", validate("param", z.object({ code: z.string().max(40) })), async (c) => {
  const code = parseCheckinCode(c.req.valid("param").code);
  if (!code) throw new ApiError(400, CHECKIN_MSG.badCode);
  return c.json(await familyByCode(c.env, database(c.env.DB), code));
});

checkinRoutes.get(
  "/search",
  validate("query", z.object({ q: z.string({ error: CHECKIN_MSG.query }).max(100, CHECKIN_MSG.query) })),
  async (c) => c.json(await searchFamilies(database(c.env.DB), c.req.valid("query").q)),
);

checkinRoutes.get(
  "/family/:kind/:id",
  validate(
    "param",
    wireSchema<FamilyKey>()(z.object({ kind: z.enum(["anmalan", "kassa"], { error: CHECKIN_MSG.noFamily }), id })),
  ),
  async (c) => {
    const { kind, id: familyId } = c.req.valid("param");
    return c.json(await familyByKind(c.env, database(c.env.DB), kind, familyId));
  },
);

const pickupBody = wireSchema<PickupRequest>()(
  z.object(
    {
      runners: z
        .array(z.object({ id, raceId: z.string().max(64).refine(isRaceId, MSG.race).nullable() }), { error: MSG.body })
        .min(1, MSG.body)
        .max(MAX_DESK_RUNNERS, MSG.body),
      pickedUp: z.boolean({ error: MSG.body }),
      actionId: z.string({ error: MSG.action }).refine(isTapId, MSG.action),
      at: z.number({ error: MSG.at }).int(MSG.at).positive(MSG.at).optional(),
      device,
    },
    { error: MSG.body },
  ),
);

checkinRoutes.post("/pickup", validate("json", pickupBody), async (c) => {
  const body = c.req.valid("json");
  return c.json(await pickUp(c.env, database(c.env.DB), body, author(c, body.device)));
});

const bibBody = wireSchema<GiveBib>()(
  z.object(
    {
      raceId: z.string().max(64).refine(isRaceId, MSG.race),
      runnerId: id,
      bib: z.union([z.literal("next"), z.number().int().min(1).max(99_999)], { error: MSG.bib }),
      device,
    },
    { error: MSG.body },
  ),
);

checkinRoutes.post("/bib", validate("json", bibBody), async (c) => {
  const body = c.req.valid("json");
  try {
    return c.json(await bibAtDesk(c.env, body.raceId, body.runnerId, body.bib, author(c, body.device)));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    const now = await participantRace(database(c.env.DB), body.runnerId);
    if (now?.raceId && now.raceId !== body.raceId) {
      throw new ApiError(409, CHECKIN_MSG.moved("Löparen", now.distance));
    }
    throw err;
  }
});

// The QR drawn from the code alone (no lookup): the receipt e-mail's PNG, the family page's SVG.
checkinQrRoutes.get(
  "/:file",
  validate(
    "param",
    z.object({
      file: z
        .string()
        .max(60)
        .regex(/^[0-9A-Za-z-]+\.(png|svg)$/, CHECKIN_MSG.badCode),
    }),
  ),
  (c) => {
    const file = c.req.valid("param").file;
    const code = parseCheckinCode(file.slice(0, -4));
    if (!code) throw new ApiError(400, CHECKIN_MSG.badCode);
    const headers = {
      // The image of a code never changes.
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    };
    if (file.endsWith(".svg")) {
      return c.body(checkinQrSvg(code), 200, { ...headers, "content-type": "image/svg+xml; charset=utf-8" });
    }
    return c.body(checkinQrPng(code) as Uint8Array<ArrayBuffer>, 200, { ...headers, "content-type": "image/png" });
  },
);
