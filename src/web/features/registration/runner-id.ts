/**
 * A new runner's id (spec: "held in a map keyed by a generated id"). The server accepts letters, digits, '-' and
 * '_'; a UUID where the browser offers one (secure contexts), else 128 random bits in hex.
 */
export function newRunnerId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
