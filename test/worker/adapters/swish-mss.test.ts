/**
 * The Swish client and the payment lifecycle against Swish's own answers as recorded from MSS
 * (../shared/reference/swish.md §1, §3: 201 with an empty body, `Location` and `PaymentRequestToken` headers,
 * numeric amounts, 422 error arrays), not only against the project's simulator; and Swish failing a create
 * (5xx, timeout, network, 201 without a token): the payment is withdrawn, the family hears so in Swedish and can
 * book again.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../../src/shared/clock";
import { swishClient, SwishError } from "../../../src/worker/adapters/swish";
import {
  newInstructionId,
  settlePayment,
  startSwishPayment,
  SWISH_FAILED,
} from "../../../src/worker/payments/payments";
import { post } from "../helpers";
import { at, familyRows, login, OPEN_AT, runner, update } from "../registration-helpers";
import { paymentRow, seedFamily } from "../swish-helpers";

const MSS = "https://mss.test/swish-cpcapi/api/";
const TOKEN = "d2b79b764fb94905a3e7271ce55ee62e";

/** The recorded MSS retrieve body (reference/swish.md §3), for the id and amount asked about. */
function recordedPayment(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    payeePaymentReference: id,
    paymentReference: "DFB38F2039B542B4A5FBDD8E2236270C",
    callbackUrl: "https://example.com/cb",
    payerAlias: "46464646464",
    payeeAlias: env.SWISH_PAYEE_ALIAS,
    amount: 199.0,
    currency: "SEK",
    message: "Order 1",
    status: "CREATED",
    dateCreated: "2026-09-21T10:58:10.464Z",
    datePaid: null,
    errorCode: null,
    errorMessage: null,
    ...overrides,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

type CreateMode = "ok" | "5xx" | "timeout" | "network" | "no-token";

/** Swish (MSS) on the wire: what each call answers, and every request it got. */
function fakeMss() {
  const state = {
    create: "ok" as CreateMode,
    remote: new Map<string, Record<string, unknown>>(),
    requests: [] as { method: string; path: string; contentType: string | null; body: string }[],
  };
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith(MSS)) return realFetch(input as RequestInfo, init);
    const path = request.url.slice(MSS.length);
    const body = await request.text();
    state.requests.push({ method: request.method, path, contentType: request.headers.get("content-type"), body });
    const id = path.split("/").pop()!;
    if (request.method === "PUT") {
      const sent = JSON.parse(body) as { amount: string; payeeAlias: string };
      switch (state.create) {
        case "5xx":
          return new Response("Internal Server Error", { status: 500 });
        case "timeout":
          throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
        case "network":
          throw new TypeError("Network connection lost.");
        case "no-token":
          state.remote.set(id, recordedPayment(id, { amount: Number(sent.amount) }));
          return new Response(null, { status: 201, headers: { Location: `${MSS}v1/paymentrequests/${id}` } });
        case "ok":
          state.remote.set(id, recordedPayment(id, { amount: Number(sent.amount), payeeAlias: sent.payeeAlias }));
          return new Response(null, {
            status: 201,
            headers: { Location: `${MSS}v1/paymentrequests/${id}`, Paymentrequesttoken: TOKEN },
          });
      }
    }
    const remote = state.remote.get(id);
    if (!remote) return new Response(null, { status: 404 });
    if (request.method === "PATCH") {
      if (remote.status !== "CREATED") {
        return json(
          [{ errorCode: "RP07", errorMessage: "Transaction status is not CREATED", additionalInformation: "" }],
          422,
        );
      }
      Object.assign(remote, {
        status: "CANCELLED",
        errorCode: "RP08",
        errorMessage: "The payment request has been cancelled",
      });
    }
    return json(remote);
  });
  return state;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the Swish client against the recorded MSS answers", () => {
  let mss: ReturnType<typeof fakeMss>;
  const client = () => swishClient({ baseUrl: MSS, fetcher: (req) => fetch(req) });
  beforeEach(() => {
    mss = fakeMss();
  });

  it("create: 201 with an empty body, the token from a 'Paymentrequesttoken' header, Location on v1", async () => {
    const id = newInstructionId();
    const created = await client().createPaymentRequest(id, {
      payeePaymentReference: id,
      callbackUrl: "https://lopp.example.se/swish/callback",
      callbackIdentifier: crypto.randomUUID(),
      payeeAlias: env.SWISH_PAYEE_ALIAS,
      amount: "199.00",
      currency: "SEK",
      message: "Byloppet 2025: 1 vuxen",
    });
    expect(created).toEqual({ token: TOKEN, location: `${MSS}v1/paymentrequests/${id}` });
    expect(mss.requests[0]).toMatchObject({
      method: "PUT",
      path: `v2/paymentrequests/${id}`,
      contentType: "application/json",
    });
    expect(JSON.parse(mss.requests[0]!.body)).toMatchObject({ amount: "199.00", currency: "SEK" });
    expect(JSON.parse(mss.requests[0]!.body)).not.toHaveProperty("payerAlias");
  });

  it("retrieve: the recorded object with a numeric amount and nulls", async () => {
    const id = newInstructionId();
    mss.remote.set(id, recordedPayment(id));
    const payment = await client().retrievePaymentRequest(id);
    expect(payment).toMatchObject({ id, amount: 199, currency: "SEK", status: "CREATED", datePaid: null });
    expect(await client().retrievePaymentRequest(newInstructionId())).toBeNull();
  });

  it("a 422 answer is Swish's error array; cancel is a JSON Patch, and a second cancel is 422 RP07", async () => {
    mss.create = "ok";
    const refuse = vi.mocked(globalThis.fetch).getMockImplementation()!;
    vi.mocked(globalThis.fetch).mockImplementationOnce(async () =>
      json([{ errorCode: "BE18", errorMessage: "Payer alias is invalid", additionalInformation: "" }], 422),
    );
    const error = await client()
      .createPaymentRequest(newInstructionId(), {
        callbackUrl: "https://lopp.example.se/swish/callback",
        payeeAlias: env.SWISH_PAYEE_ALIAS,
        amount: "199.00",
        currency: "SEK",
        payerAlias: "0701234567",
      })
      .then(
        () => null,
        (e: unknown) => e as SwishError,
      );
    expect(error).toBeInstanceOf(SwishError);
    expect(error).toMatchObject({ status: 422, code: "BE18", errors: [{ errorCode: "BE18" }] });
    vi.mocked(globalThis.fetch).mockImplementation(refuse);

    const id = newInstructionId();
    mss.remote.set(id, recordedPayment(id));
    expect(await client().cancelPaymentRequest(id)).toMatchObject({ status: "CANCELLED", errorCode: "RP08" });
    const patch = mss.requests.find((r) => r.method === "PATCH")!;
    expect(patch.contentType).toBe("application/json-patch+json");
    expect(JSON.parse(patch.body)).toEqual([{ op: "replace", path: "/status", value: "cancelled" }]);
    const again = await client()
      .cancelPaymentRequest(id)
      .then(
        () => null,
        (e: unknown) => e as SwishError,
      );
    expect(again).toMatchObject({ status: 422, code: "RP07" });
  });

  it("a payment is started and settled against MSS's answers: PAID with the numeric amount of the order", async () => {
    const mssEnv = { ...env, SWISH_BASE_URL: MSS };
    const family = await seedFamily();
    const { payid, token } = await startSwishPayment(mssEnv, systemClock, {
      registrationId: family.registrationId,
      season: 2025,
      amount: 250,
      barn: 1,
      vuxna: 1,
      kampanj: null,
      participantIds: family.participantIds,
      origin: "registration",
      message: "Byloppet 2025",
      requestOrigin: "http://localhost",
    });
    expect(token).toBe(TOKEN);
    Object.assign(mss.remote.get(payid)!, {
      status: "PAID",
      datePaid: "2026-09-21T10:59:01.123Z",
      paymentReference: "1E2FC19E5E5E4E18916609B7F8911C12",
    });
    expect(await settlePayment(mssEnv, payid, "poll")).toMatchObject({ settled: true, status: "PAID" });
    expect(await paymentRow(payid)).toMatchObject({
      status: "PAID",
      amount: 250,
      payment_reference: "1E2FC19E5E5E4E18916609B7F8911C12",
      date_paid: Date.parse("2026-09-21T10:59:01.123Z"),
    });
  });
});

describe("Swish failing a create", () => {
  it.each<[CreateMode, string]>([
    ["5xx", "HTTP500"],
    ["timeout", "NETWORK"],
    ["network", "NETWORK"],
    ["no-token", "HTTP201"],
  ])("%s: the payment is withdrawn, the family hears so in Swedish and can book again", async (mode, errorCode) => {
    const mss = fakeMss();
    const v = await login();
    expect((await update(v, { runners: { [`r-${crypto.randomUUID()}`]: runner() } })).res.status).toBe(200);
    const mssAt = at(OPEN_AT, { SWISH_BASE_URL: MSS });

    mss.create = mode;
    const failed = await post(
      "/book-v2",
      { kampanj: "", barn: 0, vuxna: 1 },
      { env: mssAt, jar: v.jar, headers: v.headers },
    );
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ error: SWISH_FAILED });
    const [payment] = (await familyRows(v.email)).payments;
    expect(payment).toMatchObject({ status: "ERROR", error_code: errorCode, token: null });
    // Whatever Swish may hold of it is withdrawn there too.
    expect(mss.requests.filter((r) => r.method === "PATCH").map((r) => r.path)).toEqual([
      `v1/paymentrequests/${payment!.id as string}`,
    ]);
    if (mode === "no-token") expect(mss.remote.get(payment!.id as string)).toMatchObject({ status: "CANCELLED" });

    mss.create = "ok";
    const again = await post(
      "/book-v2",
      { kampanj: "", barn: 0, vuxna: 1 },
      { env: mssAt, jar: v.jar, headers: v.headers },
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ token: TOKEN });
    const rows = (await familyRows(v.email)).payments;
    expect(rows.map((p) => p.status).sort()).toEqual(["CREATED", "ERROR"]);
  });

  it("a clear refusal (4xx) is not cancelled: Swish holds nothing", async () => {
    const mss = fakeMss();
    const realMock = vi.mocked(globalThis.fetch).getMockImplementation()!;
    vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      if (request.url.startsWith(MSS) && request.method === "PUT") {
        return json([{ errorCode: "PA02", errorMessage: "Amount value is missing", additionalInformation: "" }], 422);
      }
      return realMock(input, init);
    });
    const family = await seedFamily();
    const failure = await startSwishPayment({ ...env, SWISH_BASE_URL: MSS }, systemClock, {
      registrationId: family.registrationId,
      season: 2025,
      amount: 250,
      barn: 1,
      vuxna: 1,
      kampanj: null,
      participantIds: family.participantIds,
      origin: "registration",
      message: "Byloppet 2025",
      requestOrigin: "http://localhost",
    }).then(
      () => null,
      (e: unknown) => e as { status: number; message: string },
    );
    expect(failure).toMatchObject({ status: 502, message: SWISH_FAILED });
    expect(mss.requests.filter((r) => r.method === "PATCH")).toEqual([]);
  });
});
