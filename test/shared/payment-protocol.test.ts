import { describe, expect, it } from "vitest";
import { parsePaymentFrame, settledFrame } from "../../src/shared/payment-protocol";

describe("parsePaymentFrame", () => {
  it("accepts each frame the payment object sends", () => {
    expect(parsePaymentFrame(JSON.stringify(settledFrame("PAID")))).toEqual({ payment: "ok" });
    for (const status of ["DECLINED", "ERROR", "CANCELLED"] as const) {
      expect(parsePaymentFrame(JSON.stringify(settledFrame(status)))).toEqual({ payment: "failed", status });
    }
    expect(parsePaymentFrame('{"error":"Okänt meddelande"}')).toEqual({ error: "Okänt meddelande" });
  });

  it("keeps only the frame's own fields", () => {
    expect(parsePaymentFrame('{"payment":"ok","extra":1}')).toEqual({ payment: "ok" });
  });

  it("refuses junk", () => {
    for (const text of [
      "",
      "ok",
      "null",
      "42",
      '"ok"',
      "[]",
      "{}",
      '{"payment":"OK"}',
      '{"payment":"failed"}',
      '{"payment":"failed","status":"PAID"}',
      '{"payment":"failed","status":"CREATED"}',
      '{"payment":"pending"}',
      '{"error":7}',
      '{"payment":"maybe","error":"x"}',
    ]) {
      expect(parsePaymentFrame(text), text).toBeNull();
    }
  });
});
