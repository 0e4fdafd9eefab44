/**
 * sessionIdFromToken keeps the tokens it verified (sessions.ts): the kept answer must be the one verifying again
 * would give. These fail if the memo outlives the token's expiry, ignores the kind or the secret, or lets a token
 * that differs in its signature through.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/worker/db/client";
import { createSession, sessionIdFromToken } from "../../../src/worker/session/sessions";

const SECRET = env.SESSION_SECRET;
const OTHER_SECRET = "another-secret-that-is-long-enough-for-hs256-keys";

async function newToken(now: number) {
  const made = await createSession(database(env.DB), SECRET, "admin", "memo@example.se", now);
  return { token: made.token, expiresAt: made.session.expiresAt, id: made.session.id };
}

describe("verified session tokens kept in the isolate", () => {
  it("answers a kept token until its expiry, and refuses it from the expiry on", async () => {
    const now = Date.parse("2026-05-01T10:00:00Z");
    const { token, expiresAt, id } = await newToken(now);
    expect(await sessionIdFromToken(SECRET, "admin", token, now)).toEqual({ id, email: "memo@example.se" });
    // Kept now: the same answer again, and refused at the expiry as jose refuses it.
    expect(await sessionIdFromToken(SECRET, "admin", token, now + 1_000)).toEqual({ id, email: "memo@example.se" });
    expect(await sessionIdFromToken(SECRET, "admin", token, expiresAt - 1)).toEqual({ id, email: "memo@example.se" });
    expect(await sessionIdFromToken(SECRET, "admin", token, expiresAt)).toBeNull();
    expect(await sessionIdFromToken(SECRET, "admin", token, expiresAt + 60_000)).toBeNull();
  });

  it("never answers a kept token for another kind, another secret, or with another signature", async () => {
    const now = Date.parse("2026-05-02T10:00:00Z");
    const { token, id } = await newToken(now);
    expect(await sessionIdFromToken(SECRET, "admin", token, now)).toEqual({ id, email: "memo@example.se" });
    expect(await sessionIdFromToken(SECRET, "visitor", token, now)).toBeNull();
    expect(await sessionIdFromToken(OTHER_SECRET, "admin", token, now)).toBeNull();
    const [head, body, signature] = token.split(".");
    const flipped = `${head}.${body}.${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`;
    expect(await sessionIdFromToken(SECRET, "admin", flipped, now)).toBeNull();
    // The real token is still answered after the refusals.
    expect(await sessionIdFromToken(SECRET, "admin", token, now)).toEqual({ id, email: "memo@example.se" });
  });
});
