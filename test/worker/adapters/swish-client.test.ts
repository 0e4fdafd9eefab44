/**
 * The Swish client (adapters/swish.ts) against the built-in simulator, through the same fetcher the app uses in
 * development: create, retrieve, cancel, refunds, the QR service, and the simulator's validation (422 arrays).
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  swishClientFor,
  swishFetcher,
  SwishError,
  type CreatePaymentRequestBody,
} from "../../../src/worker/adapters/swish";
import { newInstructionId, swishMessage } from "../../../src/worker/payments/payments";
import { BASE, call, post } from "../helpers";
import { decodeQr, modulesFromSvg } from "../qr-decode";
import { payOnPhone, setCallbacks } from "../swish-helpers";

const client = swishClientFor(env);

function body(overrides: Partial<Record<keyof CreatePaymentRequestBody, unknown>> = {}): CreatePaymentRequestBody {
  return {
    payeePaymentReference: "ORDER1042",
    callbackUrl: `${BASE}/swish/callback`,
    callbackIdentifier: crypto.randomUUID(),
    payeeAlias: env.SWISH_PAYEE_ALIAS,
    amount: "150.00",
    currency: "SEK",
    message: "Byloppet 2025: 2 vuxna",
    ...overrides,
  } as CreatePaymentRequestBody;
}

async function rejection(p: Promise<unknown>): Promise<SwishError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SwishError);
  return err as SwishError;
}

beforeEach(async () => {
  // No callbacks: these tests talk to Swish only; the payment rows they create are not ours.
  await setCallbacks("drop");
});

describe("payment requests", () => {
  it("creates an m-commerce request (201, Location on v1, a 32-hex token) and retrieves it", async () => {
    const id = newInstructionId();
    expect(id).toMatch(/^[0-9A-F]{32}$/);
    const created = await client.createPaymentRequest(id, body());
    expect(created.token).toMatch(/^[0-9a-f]{32}$/);
    expect(created.location).toMatch(new RegExp(`/swish-cpcapi/api/v1/paymentrequests/${id}$`));

    const payment = await client.retrievePaymentRequest(id);
    expect(payment).toMatchObject({
      id,
      amount: 150,
      currency: "SEK",
      status: "CREATED",
      payeeAlias: env.SWISH_PAYEE_ALIAS,
      payeePaymentReference: "ORDER1042",
      datePaid: null,
      paymentReference: null,
      errorCode: null,
    });
    expect(payment!.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("gives no token for e-commerce (payerAlias present)", async () => {
    const created = await client.createPaymentRequest(newInstructionId(), body({ payerAlias: "46712345678" }));
    expect(created.token).toBeNull();
  });

  it("answers validation problems with a 422 error array", async () => {
    const err = await rejection(
      client.createPaymentRequest(
        newInstructionId(),
        body({ amount: "12,50", currency: "EUR", message: "Pris: 100 € <b>", callbackUrl: "http://example.com/cb" }),
      ),
    );
    expect(err.status).toBe(422);
    expect(err.errors.map((e) => e.errorCode).sort()).toEqual(["AM03", "PA02", "RP02", "RP03"]);
    expect(err.code).toBe(err.errors[0]!.errorCode);
  });

  it("refuses a reference that is too long, a bad payer alias and a reused id", async () => {
    const ref = await rejection(
      client.createPaymentRequest(newInstructionId(), body({ payeePaymentReference: "x".repeat(37) })),
    );
    expect(ref.errors.map((e) => e.errorCode)).toEqual(["FF08"]);
    const alias = await rejection(client.createPaymentRequest(newInstructionId(), body({ payerAlias: "+4670" })));
    expect(alias.errors.map((e) => e.errorCode)).toEqual(["BE18"]);
    const id = newInstructionId();
    await client.createPaymentRequest(id, body());
    expect((await rejection(client.createPaymentRequest(id, body()))).status).toBe(409);
  });

  it("refuses another payee (403), a malformed id (400) and a non-JSON body (415)", async () => {
    expect(
      (await rejection(client.createPaymentRequest(newInstructionId(), body({ payeeAlias: "1231181189" })))).status,
    ).toBe(403);
    expect((await rejection(client.createPaymentRequest("abc-123", body()))).status).toBe(400);
    const res = await swishFetcher(env)(
      new Request(new URL(`v2/paymentrequests/${newInstructionId()}`, env.SWISH_BASE_URL), {
        method: "PUT",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(body()),
      }),
    );
    expect(res.status).toBe(415);
  });

  it("fails the create at once when the message names a create-time error code (like MSS)", async () => {
    const err = await rejection(client.createPaymentRequest(newInstructionId(), body({ message: "ACMT03" })));
    expect(err.errors.map((e) => e.errorCode)).toEqual(["ACMT03"]);
  });

  it("returns null for an unknown id", async () => {
    expect(await client.retrievePaymentRequest(newInstructionId())).toBeNull();
  });

  it("cancels a CREATED request once; a second cancel is a 422", async () => {
    const id = newInstructionId();
    await client.createPaymentRequest(id, body());
    const cancelled = await client.cancelPaymentRequest(id);
    expect(cancelled).toMatchObject({ id, status: "CANCELLED", errorCode: "RP08" });
    const again = await rejection(client.cancelPaymentRequest(id));
    expect(again.status).toBe(422);
    expect(again.code).toBe("RP08");
  });

  it("cannot cancel a paid request (RP07)", async () => {
    const id = newInstructionId();
    const { token } = await client.createPaymentRequest(id, body());
    await payOnPhone(token!, "PAID");
    expect((await rejection(client.cancelPaymentRequest(id))).code).toBe("RP07");
  });

  it("the phone settles PAID with datePaid, paymentReference and the payer's number", async () => {
    const id = newInstructionId();
    const { token } = await client.createPaymentRequest(id, body());
    await payOnPhone(token!, "PAID");
    const paid = await client.retrievePaymentRequest(id);
    expect(paid).toMatchObject({ status: "PAID", payerAlias: expect.stringMatching(/^46\d+$/) });
    expect(paid!.paymentReference).toMatch(/^[0-9A-F]{32}$/);
    expect(Date.parse(paid!.datePaid!)).toBeGreaterThan(0);
  });

  it("the phone settles ERROR with the chosen code, and a message naming a code fails the payment", async () => {
    const first = newInstructionId();
    const a = await client.createPaymentRequest(first, body());
    await payOnPhone(a.token!, "ERROR", "BANKIDCL");
    expect(await client.retrievePaymentRequest(first)).toMatchObject({ status: "ERROR", errorCode: "BANKIDCL" });

    const second = newInstructionId();
    const b = await client.createPaymentRequest(second, body({ message: "RF07" }));
    await payOnPhone(b.token!, "PAID");
    expect(await client.retrievePaymentRequest(second)).toMatchObject({ status: "ERROR", errorCode: "RF07" });
  });

  it("the phone refuses a second answer (409) and unknown tokens (404)", async () => {
    const { token } = await client.createPaymentRequest(newInstructionId(), body());
    await payOnPhone(token!, "DECLINED");
    expect((await post(`/dev/swish/pay/${token}`, { status: "PAID" })).status).toBe(409);
    expect((await post(`/dev/swish/pay/${"0".repeat(32)}`, { status: "PAID" })).status).toBe(404);
    const bad = await post(`/dev/swish/pay/${token}`, { status: "MAYBE" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/status/);
  });

  it("shows the phone page with amount, payee and the two buttons", async () => {
    const { token } = await client.createPaymentRequest(newInstructionId(), body({ amount: "250.00" }));
    const res = await call(`/dev/swish/pay/${token}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("250,00 kr");
    expect(html).toContain(env.SWISH_PAYEE_ALIAS);
    expect(html).toContain(">Betala<");
    expect(html).toContain(">Avbryt<");
  });
});

describe("refunds", () => {
  it("refunds part of a paid payment, then refuses more than what is left (RF08)", async () => {
    const id = newInstructionId();
    const { token } = await client.createPaymentRequest(id, body({ amount: "250.00" }));
    await payOnPhone(token!, "PAID");
    const original = (await client.retrievePaymentRequest(id))!;

    const refundId = newInstructionId();
    const refundBody = {
      originalPaymentReference: original.paymentReference!,
      callbackUrl: `${BASE}/swish/refund-callback`,
      payerAlias: env.SWISH_PAYEE_ALIAS,
      amount: "100.00",
      currency: "SEK" as const,
      message: "Aterbetalning",
    };
    const created = await client.createRefund(refundId, refundBody);
    expect(created.location).toMatch(new RegExp(`/v1/refunds/${refundId}$`));
    expect(await client.retrieveRefund(refundId)).toMatchObject({
      id: refundId,
      amount: 100,
      status: "PAID",
      originalPaymentReference: original.paymentReference,
    });
    const tooMuch = await rejection(client.createRefund(newInstructionId(), { ...refundBody, amount: "151.00" }));
    expect(tooMuch.code).toBe("RF08");
    const unknown = await rejection(
      client.createRefund(newInstructionId(), { ...refundBody, originalPaymentReference: "NOPE" }),
    );
    expect(unknown.code).toBe("RF02");
    expect(await client.retrieveRefund(newInstructionId())).toBeNull();
  });
});

describe("QR service and message", () => {
  it("renders a token as SVG or PNG, refuses small sizes and unknown tokens", async () => {
    const { token } = await client.createPaymentRequest(newInstructionId(), body());
    const svg = await post("/dev/swish/qrg-swish/api/v1/commerce", { token, format: "svg", size: 300 });
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(decodeQr(modulesFromSvg(await svg.text()))).toBe(`D${token}`);
    const png = await post("/dev/swish/qrg-swish/api/v1/commerce", { token, format: "png", size: 300 });
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect((await post("/dev/swish/qrg-swish/api/v1/commerce", { token, format: "png", size: 200 })).status).toBe(400);
    expect((await post("/dev/swish/qrg-swish/api/v1/commerce", { token: "f".repeat(32), format: "svg" })).status).toBe(
      400,
    );
  });

  it("keeps Swish messages within 50 characters of the safe set", () => {
    expect(swishMessage("Byloppet 2025: 2 barn, 1 vuxen")).toBe("Byloppet 2025: 2 barn, 1 vuxen");
    expect(swishMessage("Café-loppet – anmälan #12 & mer")).toBe("Cafe loppet anmälan 12 mer");
    expect(swishMessage("x".repeat(80))).toHaveLength(50);
  });
});

describe("development only", () => {
  it("the simulator does not exist when DEV_MODE is not 'true'", async () => {
    const prod = { DEV_MODE: "false" };
    const id = newInstructionId();
    const paths: [string, RequestInit][] = [
      [`/dev/swish/swish-cpcapi/api/v2/paymentrequests/${id}`, { method: "PUT", body: JSON.stringify(body()) }],
      [`/dev/swish/swish-cpcapi/api/v1/paymentrequests/${id}`, { method: "GET" }],
      [`/dev/swish/pay/${"a".repeat(32)}`, { method: "GET" }],
      [`/dev/swish/pay/${"a".repeat(32)}`, { method: "POST", body: JSON.stringify({ status: "PAID" }) }],
      ["/dev/swish/settings", { method: "POST", body: JSON.stringify({ callbacks: "drop" }) }],
      ["/dev/swish/", { method: "GET" }],
    ];
    for (const [path, init] of paths) {
      const res = await call(path, {
        ...init,
        headers: { "content-type": "application/json", "x-loppet-client": "1" },
        env: prod,
      });
      expect(res.status, path).toBe(404);
    }
    const created = await env.DB.prepare(`SELECT name FROM sqlite_master WHERE name = 'dev_swish_payments'`).first();
    // The scratch table exists here only because the tests above used the simulator in development mode.
    expect(created).not.toBeNull();
  });

  it("production never routes Swish calls to the simulator: it needs the mTLS binding", async () => {
    const fetcher = swishFetcher({ ...env, DEV_MODE: "false", SWISH_CERT: undefined });
    await expect(fetcher(new Request(env.SWISH_BASE_URL))).rejects.toThrow(/SWISH_CERT/);
  });
});
