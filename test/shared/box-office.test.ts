/** The box office's sign-up check, which the Worker runs on every call and /admin/kassa on submit. */
import { describe, expect, it } from "vitest";
import {
  checkCompanionSale,
  checkQuickReg,
  checkQuickRegSale,
  COMPANION_SALE_MSG,
  QUICKREG_MSG,
  SALE_MSG,
} from "../../src/shared/box-office";

const good = {
  firstname: " Olle ",
  lastname: "Ek",
  age: "5",
  distance: "0.8",
  group: "Herr",
  phone: "070-123 45 67",
  bib: "7",
  method: "swish",
};

describe("checkQuickReg", () => {
  it("takes age 5 and bib 7 (one character is enough for those two) and trims the rest", () => {
    expect(checkQuickReg(good)).toEqual({
      ok: true,
      value: { ...good, firstname: "Olle", age: 5, bib: 7, method: "swish", kampanj: null },
    });
    expect(checkQuickReg({ ...good, age: 2015, bib: 601, method: undefined })).toMatchObject({
      ok: true,
      value: { age: 2015, bib: 601, method: "swish" },
    });
  });

  it("says 'Obligatorisk' for every missing, one-letter or wrongly typed field", () => {
    const checked = checkQuickReg({ firstname: "A", lastname: true, age: "", phone: "1", bib: [] });
    expect(checked).toEqual({
      ok: false,
      errors: {
        firstname: QUICKREG_MSG.required,
        lastname: QUICKREG_MSG.required,
        age: QUICKREG_MSG.required,
        distance: QUICKREG_MSG.required,
        group: QUICKREG_MSG.required,
        phone: QUICKREG_MSG.required,
        bib: QUICKREG_MSG.required,
      },
    });
  });

  it("names each field that is there but wrong", () => {
    const checked = checkQuickReg({
      ...good,
      firstname: "<b>Olle</b>",
      lastname: "E".repeat(61),
      age: "500",
      distance: "3.0",
      group: "Ingen",
      phone: "ring mig",
      bib: "0",
      method: "faktura",
    });
    expect(checked).toEqual({
      ok: false,
      errors: {
        firstname: QUICKREG_MSG.nameChars,
        lastname: QUICKREG_MSG.nameTooLong,
        age: QUICKREG_MSG.age,
        distance: QUICKREG_MSG.distance,
        group: QUICKREG_MSG.group,
        phone: QUICKREG_MSG.phone,
        bib: QUICKREG_MSG.bib,
        method: QUICKREG_MSG.method,
      },
    });
  });

  it("needs the code when paying with one, and refuses a body that is not an object", () => {
    expect(checkQuickReg({ ...good, method: "kampanj" })).toEqual({
      ok: false,
      errors: { kampanj: QUICKREG_MSG.kampanj },
    });
    expect(checkQuickReg({ ...good, method: "kampanj", kampanj: "FRIBILJETT" })).toMatchObject({
      ok: true,
      value: { method: "kampanj", kampanj: "FRIBILJETT" },
    });
    expect(checkQuickReg([good])).toEqual({ ok: false, errors: { _: QUICKREG_MSG.body } });
  });
});

describe("a family at the box office (checkQuickRegSale)", () => {
  const runnerOf = (fields: Record<string, string> = {}) => ({
    firstname: "Karin",
    lastname: "Plats",
    age: "41",
    distance: "5.6",
    group: "Dam",
    bib: "612",
    ...fields,
  });

  it("takes the spec's one-runner body as a sale of one, and a family of several", () => {
    const one = checkQuickRegSale(good);
    expect(one.ok && one.value.runners).toHaveLength(1);
    const family = checkQuickRegSale({
      phone: "070-123 45 67",
      method: "kontant",
      runners: [runnerOf(), runnerOf({ firstname: "Nils", age: "9", distance: "1.6", group: "Herr", bib: "212" })],
    });
    expect(family).toMatchObject({ ok: true, value: { phone: "070-123 45 67", method: "kontant", kampanj: null } });
    expect(family.ok && family.value.runners.map((r) => [r.firstname, r.age, r.bib])).toEqual([
      ["Karin", 41, 612],
      ["Nils", 9, 212],
    ]);
  });

  it("names a later runner's fields, refuses one bib twice on a distance, and an empty or too long family", () => {
    const bad = checkQuickRegSale({ phone: "12", runners: [runnerOf(), runnerOf({ lastname: "" })] });
    expect(bad).toMatchObject({
      ok: false,
      errors: { phone: QUICKREG_MSG.phone, "runners.1.lastname": "Obligatorisk" },
    });
    const twice = checkQuickRegSale({ phone: "070-123 45 67", runners: [runnerOf(), runnerOf({ firstname: "Bo" })] });
    expect(twice).toMatchObject({ ok: false, errors: { "runners.1.bib": SALE_MSG.sameBib(612) } });
    const otherDistance = checkQuickRegSale({
      phone: "070-123 45 67",
      runners: [runnerOf(), runnerOf({ firstname: "Bo", distance: "2.8" })],
    });
    expect(otherDistance.ok).toBe(true);
    expect(checkQuickRegSale({ phone: "070-123 45 67", runners: [] })).toEqual({
      ok: false,
      errors: { _: SALE_MSG.runners },
    });
    const eleven = Array.from({ length: 11 }, (_, i) => runnerOf({ bib: String(600 + i) }));
    expect(checkQuickRegSale({ phone: "070-123 45 67", runners: eleven }).ok).toBe(false);
    expect(checkQuickRegSale({ phone: "070-123 45 67", runners: "x" }).ok).toBe(false);
  });
});

describe("a companion place for a child registered online (checkCompanionSale)", () => {
  const sale = {
    saleId: "0b0e3f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
    childId: "barn-1",
    firstname: " Karin ",
    lastname: "Ek",
    age: "1984",
    distance: "1.6",
    group: "Dam",
    method: "kontant",
  };

  it("takes the companion's fields by the one-runner rules, without a phone number or a bib", () => {
    expect(checkCompanionSale(sale)).toEqual({
      ok: true,
      value: { ...sale, firstname: "Karin", age: 1984, kampanj: null },
    });
  });

  it("needs the sale's id (a UUID) and the child, and names every bad field", () => {
    const checked = checkCompanionSale({
      ...sale,
      saleId: "1",
      childId: "",
      firstname: "K",
      distance: "3.3",
      bib: "7",
    });
    expect(checked).toEqual({
      ok: false,
      errors: {
        saleId: COMPANION_SALE_MSG.saleId,
        childId: COMPANION_SALE_MSG.child,
        firstname: QUICKREG_MSG.required,
        distance: QUICKREG_MSG.distance,
      },
    });
    expect(checkCompanionSale([sale])).toEqual({ ok: false, errors: { _: QUICKREG_MSG.body } });
  });
});
