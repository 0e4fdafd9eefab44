/**
 * Helpers for the registration API tests: moments of the 2025 season as environment overrides (the test
 * environment has no NOW, so the real clock would find the 2025 registration closed), a unique client address
 * per test (rate limits are per client), logging in through the real e-mail code flow, and snapshots of a
 * family's D1 rows for "nothing changed" checks.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { CookieJar, get, post, type CallInit } from "./helpers";
import { payOnPhone } from "./swish-helpers";

/** Early price tier, registration open. */
export const OPEN_AT = "2025-08-25T10:00:00+02:00";
/** Late price tier (after 6 Sep), registration still open. */
export const LATE_AT = "2025-09-10T10:00:00+02:00";
/** After the last registration (12 Sep 23:59:59). */
export const CLOSED_AT = "2025-09-20T10:00:00+02:00";

/** Environment overrides that start the server clock at `iso` (development mode shifts the clock). */
export function at(iso: string, extra: Partial<Env> = {}): Partial<Env> {
  return { NOW: iso, NOW_SET_AT: String(Date.now()), ...extra };
}

export function minutesAfter(iso: string, minutes: number): string {
  return new Date(Date.parse(iso) + minutes * 60_000).toISOString();
}

let clients = 0;
/** A fresh client address, so one test's requests do not eat another test's rate limit. */
export function newClient(): Record<string, string> {
  clients++;
  return { "cf-connecting-ip": `10.${Math.floor(Math.random() * 200)}.${clients >> 8}.${clients & 255}` };
}

let emails = 0;
export function uniqueEmail(prefix = "familj"): string {
  emails++;
  return `${prefix}-${Date.now().toString(36)}-${emails}@example.se`;
}

export interface Visitor {
  email: string;
  jar: CookieJar;
  headers: Record<string, string>;
}

export async function requestCode(email: unknown, init: CallInit = {}) {
  const res = await post("/email", { email }, init);
  return { res, body: (await res.json()) as { id?: string; code?: string; error?: string } };
}

/** Logs in through /email and /code (development mode hands back the code) at `when`; returns the visitor. */
export async function login(email = uniqueEmail(), when = OPEN_AT): Promise<Visitor & { status: number }> {
  const jar = new CookieJar();
  const headers = newClient();
  const { res, body } = await requestCode(email, { env: at(when), headers });
  expect(res.status).toBe(200);
  const confirmed = await post("/code", { email, codeId: body.id, code: body.code }, { env: at(when), headers, jar });
  expect([200, 204]).toContain(confirmed.status);
  return { email: email.toLowerCase(), jar, headers, status: confirmed.status };
}

export function runner(overrides: Record<string, unknown> = {}) {
  return { firstname: "Anna", lastname: "Berg", age: 34, company: "", distance: "5.6", group: "Dam", ...overrides };
}

export async function getRegistration(v: Visitor, when = OPEN_AT) {
  const res = await get("/get", { env: at(when), jar: v.jar, headers: v.headers });
  return { res, body: (await res.json()) as RegistrationBody };
}

export async function update(v: Visitor, body: unknown, when = OPEN_AT) {
  const res = await post("/update", body, { env: at(when), jar: v.jar, headers: v.headers });
  return { res, body: (await res.json()) as RegistrationBody & { error?: string; errors?: Record<string, string> } };
}

export interface RegistrationBody {
  email: string;
  deltagare: Record<string, Record<string, unknown>>;
  payid: string | null;
  swishtory: Record<string, Record<string, unknown>>;
  version: number;
  locked: boolean;
  registrationOpen: boolean;
  previousRunners: Record<string, unknown>[];
  barn: number;
  vuxna: number;
  listPrice: number;
  registration?: RegistrationBody;
}

/** Every stored row that belongs to the address: registrations, their runners and payments, and login codes. */
export async function familyRows(email: string) {
  const q = (sql: string) =>
    env.DB.prepare(sql)
      .bind(email)
      .all()
      .then((r) => r.results);
  return {
    registrations: await q("SELECT * FROM registrations WHERE email = ? ORDER BY season"),
    participants: await q(
      "SELECT p.* FROM participants p JOIN registrations r ON r.id = p.registration_id WHERE r.email = ? ORDER BY p.id",
    ),
    payments: await q(
      "SELECT p.* FROM payments p JOIN registrations r ON r.id = p.registration_id WHERE r.email = ? ORDER BY p.id",
    ),
    sessions: await q("SELECT id, revoked_at FROM sessions WHERE email = ? ORDER BY id"),
  };
}

export async function campaignRows() {
  return (await env.DB.prepare("SELECT * FROM campaign_codes ORDER BY code").all()).results;
}

/**
 * Runs `attempt` (a run of calls against a rate limit, with its own fresh sessions and clients) so that all its
 * calls fall within one window of the limit, and answers that run's result.
 *
 * The rate-limit bindings count in fixed windows, not a sliding minute: locally (miniflare's RateLimiterObject)
 * a key's window is `floor(now / period)`, so every count starts again at 0 on each whole minute of the clock
 * (xx:xx:00). A run of 61 calls that straddles a minute boundary is split between two windows, and the call that
 * should be refused is counted in a fresh window and passes. So when the clock shows the run straddled a
 * boundary, it is run once more; that run begins just after the boundary and has nearly a whole minute.
 * Only a run within one window is judged, so the limit itself is checked as strictly as before.
 */
export async function inOneRateLimitWindow<T>(attempt: () => Promise<T>, periodMs = 60_000): Promise<T> {
  for (let run = 0; run < 2; run++) {
    // Date.now() here reads the same clock as the rate-limit object, and moves on every I/O: `started` is no later
    // than the first counted call, and the reading after the run no earlier than the last.
    const started = Date.now();
    const result = await attempt();
    if (Math.floor(started / periodMs) === Math.floor(Date.now() / periodMs)) return result;
  }
  throw new Error("Two runs in a row straddled a rate-limit window: a run must take well under a minute");
}

/** A family that registered one child and paid for it in the Swish simulator: its address and the child's id. */
export async function paidChildFamily(child: {
  firstname: string;
  lastname: string;
  age?: number;
  distance?: string;
}): Promise<{ email: string; id: string }> {
  const v = await login();
  const id = `kid-${crypto.randomUUID().slice(0, 8)}`;
  const runners = { [id]: runner({ age: 7, distance: "0.8", group: "Ingen", ...child }) };
  expect((await update(v, { runners, version: 0 })).res.status).toBe(200);
  const res = await post(
    "/book-v2",
    { barn: 1, vuxna: 0, kampanj: "" },
    { env: at(OPEN_AT), jar: v.jar, headers: v.headers },
  );
  expect(res.status).toBe(200);
  await payOnPhone(((await res.json()) as { token: string }).token, "PAID");
  return { email: v.email, id };
}
