/**
 * The benchmarks' HTTP client: one call to the site as the SPA makes it (the x-loppet-client header, JSON), for a
 * client that keeps its cookies and may name its own address (`cf-connecting-ip`, so the per-client rate limits
 * see many families, not one), and the nearest-rank percentile their figures use.
 */

/** @typedef {{ cookies: Map<string, string>, ip?: string }} Client */

export const STEP_TIMEOUT_MS = 30_000;

/** A client with no cookies yet. @returns {Client} */
export function newClient(ip) {
  return { cookies: new Map(), ip };
}

/** @param {Client} client */
export function cookieHeader(client) {
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/**
 * `method path` with `body` as JSON (null or undefined: none), as `client` (null: no cookies, no address).
 * Answers the status and the parsed JSON (the first 200 characters as `{body}` when it is not JSON).
 */
export async function request(baseURL, method, path, body, client, timeoutMs = STEP_TIMEOUT_MS) {
  const headers = { "x-loppet-client": "1" };
  if (body != null) headers["content-type"] = "application/json";
  if (client?.ip) headers["cf-connecting-ip"] = client.ip;
  if (client && client.cookies.size > 0) headers.cookie = cookieHeader(client);
  const res = await fetch(baseURL + path, {
    method,
    headers,
    body: body == null ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (client) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) client.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  return { status: res.status, json: jsonOf(await res.text()) };
}

/** An answer's text as JSON: null when empty, the first 200 characters as `{body}` when it is not JSON. */
function jsonOf(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { body: text.slice(0, 200) };
  }
}

/** Nearest-rank percentile `p` (0–100) of ascending `sorted`; 0 for none. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** To one decimal. */
export function round(n) {
  return Math.round(n * 10) / 10;
}

/**
 * An uncapped free campaign code of the organiser's own (POST /admin/api/kampanjkoder) for a benchmark's thousands
 * of free orders: the built-in free code is capped (20 uses by default). `admin` is a signed-in admin client.
 */
export async function benchFreeCode(baseURL, admin, runId) {
  const code = `BENCH${runId}`
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, 20);
  const res = await request(
    baseURL,
    "POST",
    "/admin/api/kampanjkoder",
    { code, rule: "free", note: "benchmark" },
    admin,
  );
  if (res.status !== 201) throw new Error(`/admin/api/kampanjkoder svarade ${res.status}: ${JSON.stringify(res.json)}`);
  return code;
}

/** The development admin on the allowlist of wrangler.toml's [vars] (ADMIN_EMAILS). */
export const DEV_ADMIN_EMAIL = "arrangor@example.se";

/**
 * Signed in as the development admin (`POST /admin/api/dev-login`, DEV_MODE only), for the race-day benchmarks:
 * the session's cookie header; `call`, a bare fetch as the SPA makes it with that cookie (a JSON body when given;
 * the raw Response, so a timed call costs no more than the fetch); `callJson`, the same read as JSON and refused
 * unless its status is one of `expected`; and the site's `/api/config` (its `wsUrl`), checked to say admin.
 */
export async function devAdmin(baseURL, timeoutMs = STEP_TIMEOUT_MS) {
  const client = newClient();
  const login = await request(baseURL, "POST", "/admin/api/dev-login", { email: DEV_ADMIN_EMAIL }, client, timeoutMs);
  if (login.status !== 200) throw new Error(`dev-login svarade ${login.status}: ${JSON.stringify(login.json)}`);
  const cookie = cookieHeader(client);
  if (!cookie) throw new Error("dev-login satte ingen kaka");
  const call = (method, pathname, body) =>
    fetch(baseURL + pathname, {
      method,
      headers: { "x-loppet-client": "1", cookie, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
  const callJson = async (method, pathname, body, expected = [200]) => {
    const res = await call(method, pathname, body);
    const text = await res.text();
    if (!expected.includes(res.status)) {
      throw new Error(`${method} ${pathname} ${body ? JSON.stringify(body) + " " : ""}svarade ${res.status}: ${text}`);
    }
    return { status: res.status, json: jsonOf(text) };
  };
  const config = (await callJson("GET", "/api/config")).json;
  if (typeof config?.wsUrl !== "string") throw new Error("/api/config gav ingen wsUrl");
  if (!config.isAdmin) throw new Error("/api/config säger att kakan från dev-login inte är admin");
  return { cookie, call, callJson, config };
}
