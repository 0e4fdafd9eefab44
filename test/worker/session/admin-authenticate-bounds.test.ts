/**
 * Issue 43: /admin/api/authenticate is bounded. A client gets 429 after 10 calls a minute (ADMIN_AUTH_RL); a Google
 * token signs in once (a replay, also of a non-admin's token, is refused and writes no audit line); the refused
 * lines of non-admins are purged by the cron's retention.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/worker/db/client";
import { purgeExpired, RETENTION_MS } from "../../../src/worker/db/retention";
import { CookieJar, DEV_ADMIN, post } from "../helpers";
import { inOneRateLimitWindow, newClient } from "../registration-helpers";

const TOKEN_USED = "Inloggningen har redan använts. Logga in med Google igen.";

async function devToken(claims: Record<string, unknown>): Promise<string> {
  const res = await post("/dev/google-token", claims);
  expect(res.status).toBe(200);
  return ((await res.json()) as { credential: string }).credential;
}

async function authenticate(credential: string, headers = newClient(), jar = new CookieJar()) {
  const res = await post("/admin/api/authenticate", { credential }, { jar, headers });
  return { res, body: (await res.json()) as Record<string, unknown>, jar };
}

async function auditLines(actor: string) {
  const { results } = await env.DB.prepare("SELECT action, subject FROM audit_log WHERE actor = ? ORDER BY id")
    .bind(actor)
    .all<{ action: string; subject: string | null }>();
  return results;
}

describe("POST /admin/api/authenticate, bounded", () => {
  it("signs in with a token once: a replay is 401, starts no session and writes no audit line", async () => {
    const email = `arr-${crypto.randomUUID().slice(0, 8)}@example.se`;
    await env.DB.prepare("INSERT INTO admins (email, added_at) VALUES (?, ?)").bind(email, Date.now()).run();
    const token = await devToken({ email });
    const first = await authenticate(token);
    expect(first.res.status).toBe(200);
    expect(first.body).toEqual({ ok: true, email, role: "organiser" });
    const replay = await authenticate(token);
    expect(replay.res.status).toBe(401);
    expect(replay.body).toEqual({ error: TOKEN_USED });
    expect(replay.res.headers.getSetCookie()).toEqual([]);
    const lines = await auditLines(email);
    expect(lines).toEqual([{ action: "admin.sign-in", subject: expect.stringMatching(/^google:[0-9a-f]{64}$/) }]);
  });

  it("two tabs sending the same token at once: one signs in, the other is refused", async () => {
    const token = await devToken({ email: DEV_ADMIN });
    const [a, b] = await Promise.all([authenticate(token), authenticate(token)]);
    expect([a.res.status, b.res.status].sort()).toEqual([200, 401]);
    const subject = (
      await env.DB.prepare(
        "SELECT subject FROM audit_log WHERE actor = ? AND action = 'admin.sign-in' ORDER BY id DESC",
      )
        .bind(DEV_ADMIN)
        .first<{ subject: string }>()
    )?.subject;
    const count = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE subject = ?")
      .bind(subject)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("a replayed non-admin token adds no audit line", async () => {
    const email = `besok-${crypto.randomUUID().slice(0, 8)}@example.se`;
    const token = await devToken({ email });
    expect((await authenticate(token)).body).toEqual({ error: "Ej admin!" });
    for (let i = 0; i < 5; i++) {
      const replay = await authenticate(token);
      expect(replay.res.status).toBe(401);
      expect(replay.body).toEqual({ error: TOKEN_USED });
    }
    expect((await auditLines(email)).map((l) => l.action)).toEqual(["admin.sign-in-refused"]);
  });

  it("a client gets 429 after 10 calls a minute, before its token is read", async () => {
    const email = `spray-${crypto.randomUUID().slice(0, 8)}@example.se`;
    const tokens = await Promise.all(Array.from({ length: 11 }, () => devToken({ email })));
    const statuses = await inOneRateLimitWindow(async () => {
      const headers = newClient();
      const out: number[] = [];
      for (const token of tokens) out.push((await authenticate(token, headers)).res.status);
      return out;
    });
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    expect((await auditLines(email)).length).toBeLessThanOrEqual(tokens.length - 1);
  });

  it("the cron purges refused lines past their retention and keeps admins' lines", async () => {
    const now = Date.now();
    const old = now - RETENTION_MS.refusedSignIns - 60_000;
    const actor = `gammal-${crypto.randomUUID().slice(0, 8)}@example.se`;
    const insert = (action: string, at: number) =>
      env.DB.prepare("INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, '{}')")
        .bind(at, actor, action, `google:${crypto.randomUUID()}`)
        .run();
    await insert("admin.sign-in-refused", old);
    await insert("admin.sign-in-refused", now);
    await insert("admin.sign-in", old);
    const report = await purgeExpired(database(env.DB), now);
    expect(report.refusedSignIns).toBeGreaterThanOrEqual(1);
    expect((await auditLines(actor)).map((l) => l.action)).toEqual(["admin.sign-in-refused", "admin.sign-in"]);
  });
});
