import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { ApiError } from "../lib/errors";

/**
 * The one validation wrapper: every body, query and param goes through a zod schema. A failure is a 400 with
 * `{error, errors}`: the first message for the UI's alert, and one message per field. Schemas carry Swedish
 * messages; a schema without one falls back to 'Ogiltigt värde'.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (result.success) return;
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.length ? issue.path.join(".") : "_";
      errors[key] ??= swedish(issue.message);
    }
    const first = Object.values(errors)[0] ?? "Ogiltig förfrågan";
    throw new ApiError(400, first, errors);
  });
}

function swedish(message: string): string {
  // zod's built-in English messages ("Invalid input: expected string…") are replaced; our schemas' own stay.
  return /^(Invalid|Too (big|small)|Unrecognized|Expected|Required)/i.test(message) ? "Ogiltigt värde" : message;
}
