/**
 * Shared helpers for Worker tests: requests through the real Worker (`exports.default`) or, with `env`
 * overrides (e.g. DEV_MODE "false", a shifted NOW), through a fresh app with a modified environment; a cookie jar
 * that behaves like a browser's for our cookies; sign-in helpers; and D1 row counts for "nothing changed" checks.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { createApp } from "../../src/worker/app";
import { database } from "../../src/worker/db/client";
import { createSession, sessionCookieName, type SessionKind } from "../../src/worker/session/sessions";

/** Tests talk to the Worker as http://localhost, like `npm start` (so cookies carry the `__Host-` prefix). */
export const BASE = "http://localhost";
export const CLIENT_HEADERS = { "x-loppet-client": "1" } as const;
export const DEV_ADMIN = "arrangor@example.se";

/** Our cookies as a browser keeps them: set by Set-Cookie, dropped by Max-Age=0, sent back as one header. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const maxAge = attributes.find((a) => /^max-age=/i.test(a));
      if (value === "" || (maxAge && Number(maxAge.split("=")[1]) <= 0)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  get size(): number {
    return this.cookies.size;
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export interface CallInit extends RequestInit {
  /** Cookies to send, and to update from the response. */
  jar?: CookieJar;
  /** Environment overrides: the request then goes to a fresh `createApp()` with `{...env, ...overrides}`. */
  env?: Partial<Env>;
}

/** One request to the Worker; `path` may be a full URL (e.g. https://… to test the scheme). */
export async function call(path: string, init: CallInit = {}): Promise<Response> {
  const { jar, env: overrides, ...requestInit } = init;
  const url = /^https?:\/\//.test(path) ? path : BASE + path;
  const headers = new Headers(requestInit.headers);
  if (jar && jar.size > 0) headers.set("cookie", jar.header());
  let res: Response;
  if (overrides) {
    const ctx = createExecutionContext();
    res = await createApp().fetch(new Request(url, { ...requestInit, headers }), { ...env, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
  } else {
    res = await exports.default.fetch(url, { ...requestInit, headers });
  }
  jar?.store(res);
  return res;
}

/** A GET as the SPA makes it (with the client header, so state-changing GETs pass the same-origin check). */
export function get(path: string, init: CallInit = {}): Promise<Response> {
  return call(path, { ...init, method: "GET", headers: { ...CLIENT_HEADERS, ...headersObject(init.headers) } });
}

/** A JSON POST as the SPA makes it. */
export function post(path: string, body: unknown, init: CallInit = {}): Promise<Response> {
  return rawPost(path, JSON.stringify(body), init);
}

/** A POST as the SPA makes it, its body sent as given: for bodies that are broken, oversized or not JSON at all. */
export function rawPost(path: string, body: string, init: CallInit & { contentType?: string } = {}): Promise<Response> {
  const { contentType = "application/json", ...rest } = init;
  return call(path, {
    ...rest,
    method: "POST",
    headers: { "content-type": contentType, ...CLIENT_HEADERS, ...headersObject(rest.headers) },
    body,
  });
}

function headersObject(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

/** Signs in as an admin through the development login; returns the jar holding the admin cookie. */
export async function loginAdmin(jar = new CookieJar(), email = DEV_ADMIN): Promise<CookieJar> {
  const res = await post("/admin/api/dev-login", { email }, { jar });
  if (res.status !== 200) throw new Error(`dev-login as ${email} failed: ${res.status} ${await res.text()}`);
  return jar;
}

/**
 * A real session (D1 row + signed cookie, exactly what startSession makes) put straight into a jar, for tests
 * that need a signed-in visitor without going through the e-mail code flow.
 */
export async function sessionJar(
  kind: SessionKind,
  email: string,
  jar = new CookieJar(),
  now = Date.now(),
): Promise<CookieJar> {
  const { token } = await createSession(database(env.DB), env.SESSION_SECRET, kind, email, now);
  jar.set(sessionCookieName(kind, BASE), token);
  return jar;
}

export function visitorJar(email: string, jar = new CookieJar()): Promise<CookieJar> {
  return sessionJar("visitor", email, jar);
}

/**
 * What every application table holds (row count and a digest of all its rows), to prove a refused request
 * changed nothing: an UPDATE that keeps the count (a revoked session, a bumped counter) shows up too.
 */
export async function storedState(): Promise<Record<string, string>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  const state: Record<string, string> = {};
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all();
    const bytes = new TextEncoder().encode(JSON.stringify(rows.results));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    state[name] =
      `${rows.results.length} rows, ${[...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  }
  return state;
}

/** A socket opened through the Worker, every frame it received kept in order (JSON parsed; "pong" as text). */
export interface TestSocket {
  ws: WebSocket;
  messages: unknown[];
  closeCode: () => number | null;
  /** The next frame not read yet. */
  next(timeoutMs?: number): Promise<unknown>;
  send(frame: unknown): void;
}

/** Opens a live socket as a page does (`{wsUrl}/…` is `/ws/…`), with the jar's cookies. */
export async function openSocket(path: string, init: CallInit = {}): Promise<TestSocket> {
  const res = await call(path, { ...init, headers: { upgrade: "websocket", ...headersObject(init.headers) } });
  if (res.status !== 101) throw new Error(`socket ${path} answered ${res.status}: ${await res.text()}`);
  const ws = res.webSocket!;
  ws.accept();
  const messages: unknown[] = [];
  let code: number | null = null;
  let read = 0;
  ws.addEventListener("message", (e) => {
    messages.push(parseFrame(e.data));
  });
  ws.addEventListener("close", (e) => {
    code = e.code;
  });
  return {
    ws,
    messages,
    closeCode: () => code,
    async next(timeoutMs = 5000) {
      await waitFor(() => messages.length > read, timeoutMs, "a socket message");
      return messages[read++];
    },
    send(frame) {
      ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
    },
  };
}

function parseFrame(data: unknown): unknown {
  if (typeof data !== "string") return data;
  try {
    return JSON.parse(data);
  } catch {
    return data; // "pong"
  }
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = "condition") {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
