/**
 * Bad input never reaches a 5xx and never changes stored data: unknown paths, non-JSON bodies, malformed JSON,
 * oversized bodies, wrong field types, and requests that do not come from the site.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../src/worker/app";
import { call, CLIENT_HEADERS, get, loginAdmin, post, storedState } from "../helpers";

/** JSON calls of both specs (and ours): the body rules hold for each, built yet or not. */
const JSON_POSTS = [
  "/email",
  "/code",
  "/login-link",
  "/update",
  "/validate-kampanj",
  "/book-v2",
  "/cancel-payment",
  "/admin/api/authenticate",
  "/admin/api/dev-login",
  "/admin/api/quickreg",
  "/dev/google-token",
];

let before: Record<string, string>;
/** Every test of the calling block must leave every table as it found it. */
function changesNothing() {
  beforeEach(async () => {
    before = await storedState();
  });
  afterEach(async () => {
    expect(await storedState()).toEqual(before);
  });
}

async function expectError(res: Response, status: number, error?: string | RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await res.json()) as { error: string };
  expect(typeof body.error).toBe("string");
  if (typeof error === "string") expect(body.error).toBe(error);
  else if (error) expect(body.error).toMatch(error);
  return body;
}

describe("unknown paths", () => {
  changesNothing();

  it("answer 404 JSON under /api, /admin/api (for an admin) and /dev", async () => {
    await expectError(await get("/api/finns-inte"), 404, "Hittades inte");
    await expectError(await get("/api/config/extra"), 404, "Hittades inte");
    await expectError(await post("/api/finns-inte", { a: 1 }), 404, "Hittades inte");
    await expectError(await get("/dev/finns-inte"), 404, "Hittades inte");
    // Signing in writes a session row; take the baseline after it.
    const jar = await loginAdmin();
    before = await storedState();
    await expectError(await get("/admin/api/finns-inte", { jar }), 404, "Hittades inte");
  });
});

describe("request bodies", () => {
  changesNothing();

  it.each(JSON_POSTS)("POST %s: a non-JSON content type is 415", async (path) => {
    for (const [type, body] of [
      ["text/plain", '{"email":"arrangor@example.se"}'],
      ["application/x-www-form-urlencoded", "email=arrangor%40example.se"],
      ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.se\r\n--x--'],
    ] as const) {
      const res = await call(path, { method: "POST", headers: { ...CLIENT_HEADERS, "content-type": type }, body });
      await expectError(res, 415, "Förfrågan måste vara JSON.");
    }
    const untyped = await call(path, {
      method: "POST",
      headers: CLIENT_HEADERS,
      body: new TextEncoder().encode('{"email":"arrangor@example.se"}'),
    });
    await expectError(untyped, 415, "Förfrågan måste vara JSON.");
  });

  it.each(["/admin/api/authenticate", "/admin/api/dev-login", "/dev/google-token"])(
    "POST %s: malformed JSON is 400 in Swedish",
    async (path) => {
      for (const body of ['{"email": ', "{not json}", "'single'", "\u0000"]) {
        const res = await call(path, {
          method: "POST",
          headers: { ...CLIENT_HEADERS, "content-type": "application/json" },
          body,
        });
        await expectError(res, 400, "Förfrågan innehåller ogiltig JSON.");
      }
    },
  );

  it.each(JSON_POSTS)("POST %s: a body over MAX_BODY_BYTES is 413", async (path) => {
    const big = JSON.stringify({ email: "a@example.se", padding: "x".repeat(MAX_BODY_BYTES) });
    await expectError(await post(path, JSON.parse(big)), 413, "För stor förfrågan.");
  });

  it("a streamed body over MAX_BODY_BYTES (no Content-Length) is 413", async () => {
    const chunk = new TextEncoder().encode(`{"email":"a@example.se","padding":"${"x".repeat(MAX_BODY_BYTES)}"}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await call("/admin/api/dev-login", {
      method: "POST",
      headers: { ...CLIENT_HEADERS, "content-type": "application/json" },
      body: stream,
    });
    await expectError(res, 413, "För stor förfrågan.");
  });

  it("wrong field types are 400 with a Swedish message per field", async () => {
    const cases: [string, unknown, RegExp][] = [
      ["/admin/api/dev-login", { email: 5 }, /Ogiltig e-postadress/],
      ["/admin/api/dev-login", { email: ["arrangor@example.se"] }, /Ogiltig e-postadress/],
      ["/admin/api/dev-login", {}, /Ogiltig e-postadress/],
      ["/admin/api/dev-login", null, /./],
      ["/admin/api/dev-login", [], /./],
      ["/admin/api/authenticate", { credential: { token: "x" } }, /Inloggningsuppgiften/],
      ["/admin/api/authenticate", { credential: "x".repeat(20_000) }, /för lång/],
      ["/dev/google-token", { email: "a@example.se", exp: "snart" }, /exp/],
      ["/dev/google-token", { email: "a@example.se", email_verified: "ja" }, /email_verified/],
    ];
    for (const [path, body, message] of cases) {
      const json = (await expectError(await post(path, body), 400, message)) as { errors?: Record<string, string> };
      expect(json.errors).toBeTypeOf("object");
      for (const text of Object.values(json.errors!)) expect(text).not.toMatch(/^(Invalid|Expected|Required)/);
    }
  });

  it("a bad query is 400 in Swedish", async () => {
    await expectError(await get("/dev/outbox.json?limit=many"), 400, /limit/);
    await expectError(await get("/dev/outbox.json?limit=100000"), 400);
  });
});

describe("requests that do not come from the site", () => {
  changesNothing();

  const attempts: [string, Record<string, string>][] = [
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["a foreign Origin despite the client header", { origin: "https://evil.example", "x-loppet-client": "1" }],
    ["no proof at all", {}],
  ];

  it.each(attempts)("a POST with %s is 403 and signs nobody in", async (_name, headers) => {
    const res = await call("/admin/api/dev-login", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ email: "arrangor@example.se" }),
    });
    await expectError(res, 403, /kom inte från sajten/);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it.each(attempts)("GET /api/logout with %s is 403", async (_name, headers) => {
    await expectError(await call("/api/logout", { headers }), 403, /kom inte från sajten/);
  });
});

describe("well-formed requests from the site pass these checks", () => {
  it("accepts JSON with a charset", async () => {
    const res = await call("/admin/api/dev-login", {
      method: "POST",
      headers: { ...CLIENT_HEADERS, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ email: "inte-admin@example.se" }),
    });
    await expectError(res, 401, "Ej admin!");
  });

  it.each([
    ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin" }],
    ["our Origin", { origin: "http://localhost" }],
    ["the client header", { "x-loppet-client": "1" }],
  ])("a POST with %s passes", async (_name, headers) => {
    const res = await call("/admin/api/dev-login", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ email: "inte-admin@example.se" }),
    });
    await expectError(res, 401, "Ej admin!");
  });
});
