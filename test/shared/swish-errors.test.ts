/** The family hears why a payment did not go through in Swedish, never Swish's English error text. */
import { describe, expect, it } from "vitest";
import { failureText } from "../../src/shared/swish-errors";

describe("failureText", () => {
  it("says what Swish's asynchronous error codes mean, in Swedish", () => {
    expect(failureText({ status: "ERROR", errorCode: "RF07" })).toBe(
      "Betalningen nekades, till exempel på grund av en beloppsgräns. Inga pengar har dragits.",
    );
    expect(failureText({ status: "ERROR", errorCode: "BANKIDCL" })).toMatch(/^Signeringen med BankID avbröts\./);
    expect(failureText({ status: "ERROR", errorCode: "TM01" })).toMatch(/i tid\. Inga pengar har dragits\.$/);
    // The one case where money may have moved: never "no money was taken".
    expect(failureText({ status: "ERROR", errorCode: "DS24" })).toMatch(/Kontrollera i din bank/);
    expect(failureText({ status: "ERROR", errorCode: "DS24" })).not.toMatch(/Inga pengar/);
  });

  it("falls back on the status, for a code it does not know or none", () => {
    expect(failureText({ status: "DECLINED", errorCode: null })).toBe(
      "Betalningen avbröts eller nekades i Swish-appen. Inga pengar har dragits.",
    );
    expect(failureText({ status: "CANCELLED", errorCode: null })).toBe("Betalningen avbröts. Inga pengar har dragits.");
    expect(failureText({ status: "ERROR", errorCode: "XYZ99" })).toBe(
      "Betalningen kunde inte genomföras. Inga pengar har dragits.",
    );
  });

  it("never uses an English word of Swish's error texts", () => {
    for (const errorCode of ["RF07", "BANKIDCL", "TM01", "FF10", "DS24", "BANKIDONGOING", "BANKIDUNKN", "RP08", null]) {
      for (const status of ["DECLINED", "ERROR", "CANCELLED"] as const) {
        expect(failureText({ status, errorCode })).not.toMatch(/transaction|declined|timed out|payer|cancelled|error/i);
      }
    }
  });
});
