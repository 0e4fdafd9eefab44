/**
 * A JSON text that holds an object, read for a guard to check field by field: the socket frames' parsers and the
 * stopwatch's saved state. Null for anything else (not JSON, an array, a string, null).
 */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
