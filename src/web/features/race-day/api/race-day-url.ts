/** The path of a race-day call: encoded segments, then the query with a device id on every write. */
import { deviceId } from "../../../lib/device-id";

/** `device`: the device that made the press (a queued item keeps its own); this device's by default. */
export function raceDayUrl(
  segments: readonly (string | number)[],
  query: Record<string, string | number | undefined> = {},
): string {
  const path = segments.map((s) => encodeURIComponent(String(s))).join("/");
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && key !== "device") params.set(key, String(value));
  params.set("device", query.device !== undefined ? String(query.device) : deviceId());
  return `/admin/api/races/${path}?${params}`;
}

/**
 * A queued press's call gives up after this long. Out of coverage a request can hang for minutes without an answer,
 * and the queue sends one press at a time: it must not wait that long once the signal is back. Giving up is
 * harmless: the press stays queued, and a resend of its tap id changes nothing the server already has.
 */
export const SEND_TIMEOUT_MS = 15_000;
