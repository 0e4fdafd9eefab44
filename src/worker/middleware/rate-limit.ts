/**
 * Rate limits with the Workers rate-limit bindings. They count per key and per Cloudflare location, so they are
 * a brake on one client or one session, never the only bound on something that must hold globally (login-code
 * guessing per address is counted in D1: src/worker/session/login-codes-db.ts).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { tooMany } from "../lib/errors";

const TOO_MANY_CALLS = "För många förfrågningar på kort tid. Vänta en minut och försök igen.";

/** The client for per-client rate limits: Cloudflare's connecting IP, else the first proxy hop (local runs). */
export function clientKey(c: Context<AppEnv>): string {
  return (
    c.req.header("cf-connecting-ip") ??
    c.req.header("x-forwarded-for")?.split(",")[0]?.trim() ??
    c.req.header("x-real-ip") ??
    "okänd"
  ).slice(0, 64);
}

export async function allowed(limiter: RateLimit, key: string): Promise<boolean> {
  return (await limiter.limit({ key })).success;
}

/**
 * Per-session (VISITOR_RL) and per-client (CLIENT_RL) limits for a family's saves, bookings and payment polls;
 * `name` keeps each call's count apart. A session that books in a loop, or a client that cycles sessions, is
 * stopped with a Swedish 429 before it reaches D1 or Swish.
 */
export function visitorLimits(name: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const session = c.var.session;
    const [bySession, byClient] = await Promise.all([
      session ? allowed(c.env.VISITOR_RL, `${name}:${session.id}`) : true,
      allowed(c.env.CLIENT_RL, `${name}:${clientKey(c)}`),
    ]);
    if (!bySession || !byClient) throw tooMany(TOO_MANY_CALLS);
    await next();
  });
}
