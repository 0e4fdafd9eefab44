/** The path of a race-day call: encoded segments, then the query with this device's id on every write. */
import { deviceId } from "../device-id";

export function raceDayUrl(
  segments: readonly (string | number)[],
  query: Record<string, string | number | undefined> = {},
): string {
  const path = segments.map((s) => encodeURIComponent(String(s))).join("/");
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  params.set("device", deviceId());
  return `/admin/api/races/${path}?${params}`;
}
