/**
 * What the database keeps (db/retention.ts): the cron purges sessions, login codes and wrong tries past their
 * retention and empties old e-mail bodies, and leaves everything younger alone.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../src/worker/index";
import { SEASON } from "../../../src/shared/season";
import { stockholmToEpoch } from "../../../src/shared/stockholm";
import { database } from "../../../src/worker/db/client";
import { purgeExpired, RETENTION_MS } from "../../../src/worker/db/retention";
import { loginAdmin, post } from "../helpers";

const HOUR = 60 * 60_000;

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function ids(sql: string, ...params: unknown[]): Promise<string[]> {
  const { results } = await env.DB.prepare(sql)
    .bind(...params)
    .all<{ id: string | number }>();
  return results.map((r) => String(r.id));
}

describe("retention", () => {
  it("the cron purges sessions, login codes, wrong tries and e-mail bodies past their retention, and keeps the rest", async () => {
    const now = Date.now();
    const old = now - RETENTION_MS.sessions - HOUR;
    const tag = crypto.randomUUID().slice(0, 8);
    const insertSession = (id: string, expiresAt: number, revokedAt: number | null) =>
      env.DB.prepare(
        "INSERT INTO sessions (id, kind, email, created_at, expires_at, revoked_at) VALUES (?, 'visitor', ?, ?, ?, ?)",
      )
        .bind(`${tag}-${id}`, `${tag}@example.se`, expiresAt - HOUR, expiresAt, revokedAt)
        .run();
    await insertSession("expired", old, null);
    await insertSession("revoked", now + HOUR, old);
    await insertSession("live", now + HOUR, null);
    await insertSession("just-expired", now - HOUR, null);

    const insertCode = (id: string, createdAt: number) =>
      env.DB.prepare(
        "INSERT INTO login_codes (id, email, code_hash, created_at, expires_at, client_key) VALUES (?, ?, 'x', ?, ?, '10.0.0.1')",
      )
        .bind(`${tag}-${id}`, `${tag}@example.se`, createdAt, createdAt + 10 * 60_000)
        .run();
    await insertCode("old-code", now - RETENTION_MS.loginCodes - HOUR);
    await insertCode("new-code", now - HOUR);
    const insertFailure = (id: string, at: number) =>
      env.DB.prepare("INSERT INTO login_failures (id, email, code_id, at) VALUES (?, ?, 'c', ?)")
        .bind(`${tag}-${id}`, `${tag}@example.se`, at)
        .run();
    await insertFailure("old-try", now - RETENTION_MS.loginFailures - HOUR);
    await insertFailure("new-try", now - 10 * 60_000);

    const insertMail = (subject: string, createdAt: number) =>
      env.DB.prepare(
        `INSERT INTO email_log ("to", subject, html, text, kind, transport, status, created_at)
         VALUES (?, ?, '<p>Kvitto</p>', 'Kvitto', 'receipt', 'outbox', 'sent', ?)`,
      )
        .bind(`${tag}@example.se`, subject, createdAt)
        .run();
    await insertMail("gammalt kvitto", now - RETENTION_MS.emailBodies - HOUR);
    await insertMail("nytt kvitto", now - HOUR);

    await runCron();

    expect(await ids("SELECT id FROM sessions WHERE email = ? ORDER BY id", `${tag}@example.se`)).toEqual([
      `${tag}-just-expired`,
      `${tag}-live`,
    ]);
    expect(await ids("SELECT id FROM login_codes WHERE email = ?", `${tag}@example.se`)).toEqual([`${tag}-new-code`]);
    expect(await ids("SELECT id FROM login_failures WHERE email = ?", `${tag}@example.se`)).toEqual([`${tag}-new-try`]);
    const { results: mails } = await env.DB.prepare(
      `SELECT subject, html, text FROM email_log WHERE "to" = ? ORDER BY subject`,
    )
      .bind(`${tag}@example.se`)
      .all();
    // Who got what and when stays; the old body goes.
    expect(mails).toEqual([
      { subject: "gammalt kvitto", html: "", text: "" },
      { subject: "nytt kvitto", html: "<p>Kvitto</p>", text: "Kvitto" },
    ]);
  });

  it("keeps what the per-address login limits look back on (one hour)", () => {
    expect(RETENTION_MS.loginCodes).toBeGreaterThanOrEqual(HOUR);
    expect(RETENTION_MS.loginFailures).toBeGreaterThanOrEqual(HOUR);
  });

  it("a box-office runner's phone number stays 30 days after its season's race day, then the cron removes it", async () => {
    const admin = await loginAdmin();
    const phone = `070-${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const sale = await post(
      "/admin/api/quickreg",
      {
        firstname: "Tova",
        lastname: "Telefon",
        age: "30",
        distance: "0.8",
        group: "Dam",
        phone,
        bib: String(150 + Math.floor(Math.random() * 40)),
        method: "kontant",
      },
      { jar: admin },
    );
    expect(sale.status, await sale.clone().text()).toBe(200);
    const { payid } = (await sale.json()) as { payid: string };
    const stored = () =>
      env.DB.prepare("SELECT firstname, phone FROM participants WHERE paid_by = ?")
        .bind(payid)
        .first<{ firstname: string; phone: string | null }>();
    const raceDayEnd = stockholmToEpoch(`${SEASON.raceDay}T23:59:59`) + 1000;

    await purgeExpired(database(env.DB), raceDayEnd + RETENTION_MS.boxOfficePhones - HOUR);
    expect(await stored()).toEqual({ firstname: "Tova", phone });

    // The real cron, on today's clock (the 2025 season is long over): the number goes, the runner stays.
    await runCron();
    expect(await stored()).toEqual({ firstname: "Tova", phone: null });
  });

  it("keeps a box-office number 30 days after the race day, and no longer", () => {
    expect(RETENTION_MS.boxOfficePhones).toBe(30 * 24 * HOUR);
  });
});
