/** The box office's sign-up check, which the Worker runs on every call and /admin/kassa on submit. */
import { describe, expect, it } from "vitest";
import { checkQuickReg, QUICKREG_MSG } from "../../src/shared/box-office";

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
