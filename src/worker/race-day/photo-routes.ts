/**
 * Målfoto's calls (issue 44; docs/api.md, "Målfoto"), admin and same-origin guarded like every race-day call:
 * - PUT /admin/api/races/photo/{race}/{tap}/{frame}?device: one frame (0 before, 1 nearest, 2 after the press) as
 *   `image/jpeg`, the body at most MAX_PHOTO_BYTES: the one body of the API that is not JSON and is exempt from
 *   its 64 KiB limit (app.ts, json-body.ts). 201 recorded, 200 a resend (nothing stored again); 429 with
 *   `Retry-After` past the admin session's upload rate in the race (src/durable/race/rules/photo-uploads.ts).
 * - GET  /admin/api/races/photo/{race}/{tap}/{frame}: the JPEG, never cached, while the race keeps it.
 * - POST /admin/api/races/photos-delete/{race} {}: 'Radera målfoton': every photo of the race, at once.
 * Bad input is a Swedish 4xx with nothing stored (finish-photos.ts says in which order what is written).
 */
import { Hono } from "hono";
import { z } from "zod";
import { isPhotoFrame, MAX_PHOTO_BYTES, photoProblem } from "../../shared/finish-photos";
import { isRaceId } from "../../shared/race-id";
import type { PhotoResult, PhotosDeleted } from "../../shared/race-answers";
import { isDeviceId, isTapId } from "../../shared/race-protocol";
import { SEASON } from "../../shared/season";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { validate } from "../middleware/validate";
import { readPhoto, storePhoto } from "./finish-photos";
import { deleteRacePhotos } from "./photo-objects";
import { runOnRace } from "./race-runners";

export const photoRoutes = new Hono<AppEnv>();

/** The upload's path (app.ts exempts its body from the JSON rules and limit). */
export const PHOTO_UPLOAD_PATH = /^\/admin\/api\/races\/photo\//;

const photoParam = z.object({
  raceId: z.string().max(64).refine(isRaceId, "Loppet finns inte."),
  tapId: z.string().refine(isTapId, "Ogiltigt tryck-id."),
  frame: z.coerce.number().refine(isPhotoFrame, "Okänd bildruta."),
});
const deviceQuery = z.object({ device: z.string().refine(isDeviceId, "Ogiltigt enhets-id.").optional() });

function featureOn(): void {
  if (!SEASON.finishPhotos) throw new ApiError(403, "Målfoto är avstängt den här säsongen.");
}

/** The body, at most `max` bytes (a longer one is refused without reading it all). */
async function cappedBody(req: Request, max: number): Promise<Uint8Array> {
  const tooBig = () => new ApiError(413, `Målfotot är för stort (högst ${max / 1024} kB).`);
  const length = req.headers.get("content-length");
  if (length !== null && Number(length) > max) throw tooBig();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

photoRoutes.put(
  "/photo/:raceId/:tapId/:frame",
  validate("param", photoParam),
  validate("query", deviceQuery),
  async (c) => {
    featureOn();
    const type = c.req.header("content-type") ?? "";
    if (!/^image\/jpeg\s*(;|$)/i.test(type)) throw new ApiError(415, "Målfotot måste vara en JPEG-bild.");
    const bytes = await cappedBody(c.req.raw, MAX_PHOTO_BYTES);
    const problem = photoProblem(bytes);
    if (problem) throw new ApiError(422, problem);
    const { raceId, tapId, frame } = c.req.valid("param");
    const device = c.req.valid("query").device;
    const result = await storePhoto(
      c.env,
      raceId,
      // The rate limit counts per admin session (the admin guard set it; "okänd" never happens on this route).
      { tapId, frame, bytes, uploader: c.var.admin?.id ?? "okänd" },
      { actor: c.var.admin?.email ?? "okänd", ...(device ? { device } : {}) },
    );
    return c.json(result satisfies PhotoResult, result.outcome === "recorded" ? 201 : 200);
  },
);

photoRoutes.get("/photo/:raceId/:tapId/:frame", validate("param", photoParam), async (c) => {
  const { raceId, tapId, frame } = c.req.valid("param");
  const object = await readPhoto(c.env, raceId, tapId, frame);
  if (!object) throw new ApiError(404, "Målfotot finns inte.");
  return new Response(object.body, {
    headers: { "content-type": "image/jpeg", "cache-control": "private, no-store", "content-length": `${object.size}` },
  });
});

photoRoutes.post(
  "/photos-delete/:raceId",
  validate("param", z.object({ raceId: z.string().max(64).refine(isRaceId, "Loppet finns inte.") })),
  validate("query", deviceQuery),
  validate("json", z.strictObject({}, { error: "Ogiltig förfrågan." })),
  async (c) => {
    const { raceId } = c.req.valid("param");
    const device = c.req.valid("query").device;
    const result = await runOnRace(
      c.env,
      raceId,
      { type: "delete-photos", reason: "organiser" },
      { actor: c.var.admin?.email ?? "okänd", ...(device ? { device } : {}) },
    );
    const objects = await deleteRacePhotos(c.env, raceId);
    return c.json({ deleted: result.deleted, objects } satisfies PhotosDeleted);
  },
);
