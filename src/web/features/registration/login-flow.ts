/**
 * What the login steps hand each other in the history entry, so a reload or a step back keeps it: step 1 (the
 * e-mail) → step 2 (the code) carries the address and the code's id; step 2 → step 1 ('Ändra e-post') carries
 * the address back.
 */

/** What step 2 is opened with. */
export interface CodeStepState {
  email: string;
  codeId: string;
  code: string;
}

/** What step 1 is opened with (from step 2, to change the address). */
export interface EmailStepState {
  email?: string;
}

export function isCodeStepState(x: unknown): x is CodeStepState {
  if (typeof x !== "object" || x === null) return false;
  const s = x as Record<string, unknown>;
  return typeof s.email === "string" && typeof s.codeId === "string" && typeof s.code === "string";
}
