/**
 * The frames a browser may send on a race or hub socket (RaceClientFrame in shared/race-protocol.ts), parsed
 * once for both Durable Objects: anything else, or anything larger than MAX_CLIENT_FRAME_BYTES, is an error the
 * object answers on the socket, which stays open.
 */
import { z } from "zod";
import { MAX_CLIENT_FRAME_BYTES, type RaceClientFrame } from "../shared/race-protocol";

const clientFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("subscribe-to-race"), since: z.number().int().min(0).optional() }),
  z.object({ action: z.literal("sync"), id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), t0: z.number() }),
]);

export function parseClientFrame(message: string | ArrayBuffer): { frame: RaceClientFrame } | { error: string } {
  const size = typeof message === "string" ? message.length : message.byteLength;
  if (size > MAX_CLIENT_FRAME_BYTES) return { error: "Meddelandet är för stort." };
  let data: unknown;
  try {
    data = typeof message === "string" ? JSON.parse(message) : undefined;
  } catch {
    data = undefined;
  }
  const parsed = clientFrame.safeParse(data);
  return parsed.success ? { frame: parsed.data } : { error: "Okänt meddelande." };
}
