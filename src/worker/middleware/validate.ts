import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { input, ZodType } from "zod";
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

/** Every key of every member of a union. */
type Keys<T> = T extends unknown ? keyof T : never;
type SameKeys<A, B> = [Keys<A>] extends [Keys<B>] ? ([Keys<B>] extends [Keys<A>] ? true : false) : false;
type Declares<Wire, Input> = [Wire] extends [Input]
  ? SameKeys<Wire, Input> extends true
    ? unknown
    : { "the schema's fields differ from the shared type's": Keys<Wire> }
  : { "the shared type does not pass the schema's input type": Wire };

/**
 * A schema for a request shape declared in src/shared, which the SPA sends typed: every value of `Wire` must be
 * one the schema's input type takes, and the two name the same fields, so a field added, dropped or retyped on one
 * side alone fails to compile. (The schema may take more than `Wire` says: a bib typed as text or as a number.)
 * Curried so the schema's own type is inferred: `wireSchema<GiveBib>()(z.object({…}))`.
 */
export function wireSchema<Wire>() {
  return <S extends ZodType>(schema: S & Declares<Wire, input<S>>): S => schema;
}
