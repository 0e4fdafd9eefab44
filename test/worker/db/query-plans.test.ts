/**
 * Queries that run per request use an index. The visitor's whole flow (code, runners, campaign preview, booking,
 * the Swish callback and its settlement, the receipt poll), an admin request and the cron run through the Worker
 * on a D1 that records every statement; `EXPLAIN QUERY PLAN` of each, on the migrated schema, must not read a
 * growing table from end to end.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { offsetClock } from "../../../src/shared/clock";
import { swishClientFor } from "../../../src/worker/adapters/swish";
import { createApp } from "../../../src/worker/app";
import { database } from "../../../src/worker/db/client";
import { purgeExpired } from "../../../src/worker/db/retention";
import { reconcilePayments } from "../../../src/worker/payments/payments";
import { BASE, CLIENT_HEADERS, CookieJar, loginAdmin } from "../helpers";
import { at, OPEN_AT, runner, uniqueEmail } from "../registration-helpers";
import { payOnPhone, setCallbacks } from "../swish-helpers";

/** Tables that grow with every family, payment, mail or sign-in; the rest are a handful of rows. */
const GROWING = [
  "registrations",
  "participants",
  "payments",
  "login_codes",
  "login_failures",
  "sessions",
  "email_log",
  "audit_log",
  "results",
  "mailings",
  "mailing_recipients",
  "unsubscribes",
  "epassi_invitations",
];

interface Recorded {
  sql: string;
  params: unknown[];
}

/** A D1 that hands every statement on to the real one and remembers it (with the values it was bound to). */
function recordingD1(real: D1Database, into: Map<string, Recorded>): D1Database {
  const remember = (sql: string, params: unknown[]) => {
    if (!into.has(sql)) into.set(sql, { sql, params });
  };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          remember(sql, []);
          return new Proxy(statement, {
            get(s, p) {
              if (p === "bind") {
                return (...params: unknown[]) => {
                  into.set(sql, { sql, params });
                  return s.bind(...params);
                };
              }
              const value = Reflect.get(s, p, s) as unknown;
              return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(s) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const perRequest = new Map<string, Recorded>();
const perCron = new Map<string, Recorded>();

async function through(
  recorded: Map<string, Recorded>,
  path: string,
  init: RequestInit & { jar?: CookieJar; body?: string } = {},
) {
  const headers = new Headers({ ...CLIENT_HEADERS, ...Object.fromEntries(new Headers(init.headers).entries()) });
  if (init.body) headers.set("content-type", "application/json");
  if (init.jar?.size) headers.set("cookie", init.jar.header());
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(BASE + path, { ...init, headers }),
    { ...env, ...at(OPEN_AT), DB: recordingD1(env.DB, recorded) },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  init.jar?.store(res);
  return res;
}

async function plan(r: Recorded): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${r.sql}`)
    .bind(...r.params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

/** Columns with a handful of values: an index search on them alone still reads a large share of the table. */
const FEW_VALUES = ["status", "kind", "season", "distance", "origin", "year"];

/**
 * A plan step that reads a growing table whole, or a growing share of it: a SCAN; a SEARCH on columns with a
 * handful of values only (status = 'PAID' is most of the payments by race day); and, per request, a SEARCH that
 * only bounds a range from one end (the cron's purges do that on purpose, a batch at a time).
 */
function fullRead(detail: string, perRequest: boolean): boolean {
  const match = /^(SCAN|SEARCH) (\w+)(?: AS \w+)?(.*)$/.exec(detail);
  if (!match || !GROWING.includes(match[2]!)) return false;
  if (match[1] === "SCAN") return true;
  const terms = [...(/\(([^)]*)\)\s*$/.exec(match[3]!)?.[1]?.split(" AND ") ?? [])];
  const columns = terms.map((t) => /^(\w+)/.exec(t)?.[1] ?? "");
  if (columns.length > 0 && columns.every((c) => FEW_VALUES.includes(c))) return true;
  return perRequest && terms.length > 0 && !terms.some((t) => /=\?$/.test(t));
}

/** Reads of many rows that are the point of the query, not a missing index. */
const BY_DESIGN = [
  // The organiser's campaign list counts every paid order per code (an admin page, not a visitor's request).
  { sql: /select "kampanj", count\(\*\) from "payments"/, why: "an admin aggregate over all paid orders" },
];

const byDesign = (sql: string) => BY_DESIGN.some((b) => b.sql.test(sql));

beforeAll(async () => {
  await setCallbacks("drop");
  const email = uniqueEmail("plan");
  const client = { "cf-connecting-ip": "10.250.0.1" };
  const jar = new CookieJar();
  const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body), headers: client, jar });

  // Last season's registration, so the "welcome back" lookup has something to find.
  await env.DB.prepare(
    "INSERT INTO registrations (id, season, email, version, created_at, updated_at) VALUES (?, 2024, ?, 0, 0, 0)",
  )
    .bind(crypto.randomUUID(), email)
    .run();

  const sent = (await (await through(perRequest, "/email", json({ email }))).json()) as { id: string; code: string };
  await through(perRequest, "/code", json({ email, codeId: sent.id, code: "000000" === sent.code ? "1" : "000000" }));
  // A sign-in link that is not ours reads login_codes by its link hash.
  await through(perRequest, "/login-link", json({ token: "ab".repeat(32) }));
  expect((await through(perRequest, "/code", json({ email, codeId: sent.id, code: sent.code }))).status).toBe(204);
  await through(perRequest, "/get", { jar });
  const runners = { [`plan-${crypto.randomUUID()}`]: runner() };
  expect((await through(perRequest, "/update", json({ runners }))).status).toBe(200);
  await through(perRequest, "/validate-kampanj", json({ kampanj: "VANLOPP50", barn: 0, vuxna: 1 }));
  const booked = (await (await through(perRequest, "/book-v2", json({ kampanj: "", barn: 0, vuxna: 1 }))).json()) as {
    token: string;
    payref: string;
  };
  await through(perRequest, `/verify?id=${booked.payref}`, { jar });
  await payOnPhone(booked.token);
  const swish = await swishClientFor(env).retrievePaymentRequest(booked.payref);
  const identifier = (await env.DB.prepare("SELECT callback_identifier AS id FROM payments WHERE id = ?")
    .bind(booked.payref)
    .first<{ id: string }>())!.id;
  await through(perRequest, "/swish/callback", {
    method: "POST",
    body: JSON.stringify(swish),
    headers: { callbackIdentifier: identifier },
  });
  await through(perRequest, "/swish/callback", {
    method: "POST",
    body: JSON.stringify(swish),
    headers: { callbackIdentifier: crypto.randomUUID() },
  });
  await through(perRequest, `/verify?id=${booked.payref}`, { jar });
  await through(perRequest, "/api/config");
  await through(perRequest, "/api/logout", { jar });

  const admin = await loginAdmin();
  await through(perRequest, "/admin/api/me", { jar: admin });
  await through(perRequest, "/admin/api/kampanjkoder", { jar: admin });

  const cronEnv = { ...env, DB: recordingD1(env.DB, perCron) };
  await reconcilePayments(cronEnv, offsetClock(Date.now() + 10 * 60_000));
  await purgeExpired(database(cronEnv.DB), Date.now());
});

describe("query plans", () => {
  it("records the hot queries of the flow", () => {
    expect(perRequest.size).toBeGreaterThan(20);
    const all = [...perRequest.keys()].join("\n");
    for (const table of ["sessions", "login_codes", "login_failures", "registrations", "payments", "audit_log"]) {
      expect(all, table).toContain(table);
    }
  });

  it("no per-request query reads a growing table whole", async () => {
    const problems: string[] = [];
    for (const r of perRequest.values()) {
      if (byDesign(r.sql)) continue;
      const steps = await plan(r);
      const bad = steps.filter((d) => fullRead(d, true));
      if (bad.length) problems.push(`${bad.join("; ")}\n    ${r.sql.replace(/\s+/g, " ").slice(0, 300)}`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("no cron query scans a growing table", async () => {
    expect(perCron.size).toBeGreaterThan(3);
    const problems: string[] = [];
    for (const r of perCron.values()) {
      const bad = (await plan(r)).filter((d) => fullRead(d, false));
      if (bad.length) problems.push(`${bad.join("; ")}\n    ${r.sql.replace(/\s+/g, " ").slice(0, 300)}`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("the purge of e-mail bodies visits only the rows that still have one (the partial index)", async () => {
    const purge = [...perCron.values()].find((r) => r.sql.includes("UPDATE email_log"));
    expect(purge).toBeDefined();
    expect((await plan(purge!)).join("\n")).toContain("email_log_with_body");
  });
});
