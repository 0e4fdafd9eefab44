/**
 * The race and hub sockets' frames, handled once for both Durable Objects: what a browser may send
 * (RaceClientFrame in shared/race-protocol.ts; anything else, or anything larger than MAX_CLIENT_FRAME_BYTES, is
 * an error the object answers on the socket, which stays open), sending a frame, and answering a close.
 */
import { z } from "zod";
import { MAX_CLIENT_FRAME_BYTES, type RaceClientFrame, type RaceServerFrame } from "../shared/race-protocol";

const clientFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("subscribe-to-race"), since: z.number().int().min(0).optional() }),
  z.object({ action: z.literal("sync"), id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), t0: z.number() }),
]);

export function parseClientFrame(message: string | ArrayBuffer): { frame: RaceClientFrame } | { error: string } {
  if (frameBytes(message) > MAX_CLIENT_FRAME_BYTES) return { error: "Meddelandet är för stort." };
  let data: unknown;
  try {
    data = typeof message === "string" ? JSON.parse(message) : undefined;
  } catch {
    data = undefined;
  }
  const parsed = clientFrame.safeParse(data);
  return parsed.success ? { frame: parsed.data } : { error: "Okänt meddelande." };
}

/** The frame's size in bytes as it crossed the wire (UTF-8), not in UTF-16 code units. */
function frameBytes(message: string | ArrayBuffer): number {
  if (typeof message !== "string") return message.byteLength;
  // At most 3 bytes per UTF-16 code unit: short frames need no encoding to be judged.
  if (message.length * 3 <= MAX_CLIENT_FRAME_BYTES) return message.length;
  return new TextEncoder().encode(message).byteLength;
}

export function sendFrame(ws: WebSocket, frame: RaceServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // A socket closing under us: the page reconnects and gets what it missed.
  }
}

/** The object's webSocketClose: completes the close handshake unless the runtime already has. */
export function closeSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // Already closed (the runtime answers the close handshake itself on current compatibility dates).
  }
}
