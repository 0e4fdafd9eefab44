import { describe, expect, it } from "vitest";
import { epassiErrorOf, errorAnswerOf, registrationOf } from "../../src/shared/api-answers";

const retime = { runnerId: "r1", sort: "s1", bib: 733, name: "Ella Ek", from: 1000, to: 2000, started: 0 };

describe("errorAnswerOf", () => {
  it("reads the error answer with its field errors and the runners a decision re-times", () => {
    expect(errorAnswerOf({ error: "Nej", errors: { email: "Ange e-post" }, retimes: [retime] })).toEqual({
      error: "Nej",
      errors: { email: "Ange e-post" },
      retimes: [retime],
    });
  });

  it("is null for a body that is no error answer", () => {
    for (const body of [null, undefined, "<html>", 42, {}, { error: 7 }, { message: "Nej" }]) {
      expect(errorAnswerOf(body)).toBeNull();
    }
  });

  it("keeps the message and drops malformed field errors and retimes", () => {
    expect(errorAnswerOf({ error: "Nej", errors: { a: 1 }, retimes: [{ ...retime, to: "snart" }] })).toEqual({
      error: "Nej",
    });
    expect(errorAnswerOf({ error: "Nej", retimes: "r1" })).toEqual({ error: "Nej" });
  });
});

describe("registrationOf", () => {
  const registration = { email: "a@b.se", deltagare: {}, payid: null };

  it("is the registration a 409 carries", () => {
    expect(registrationOf({ error: "Ändrad i en annan flik", registration })).toEqual(registration);
  });

  it("is null without an error message or a registration", () => {
    expect(registrationOf({ registration })).toBeNull();
    expect(registrationOf({ error: "Nej" })).toBeNull();
    expect(registrationOf({ error: "Nej", registration: { email: "a@b.se" } })).toBeNull();
  });
});

describe("epassiErrorOf", () => {
  it("is an ePassi call's refusal: its message, the same error and the field errors", () => {
    const body = { message: "Ange namn.", error: "Ange namn.", errors: { name: "Ange namn." } };
    expect(epassiErrorOf(body)).toEqual(body);
  });

  it("is null without the message or without the error", () => {
    for (const body of [null, "<html>", { error: "Nej" }, { message: "Nej" }, { message: 7, error: "Nej" }]) {
      expect(epassiErrorOf(body)).toBeNull();
    }
  });
});
