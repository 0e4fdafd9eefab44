/** The family's check-in code (src/shared/checkin.ts): made from random bytes, printed in groups, read back. */
import { describe, expect, it } from "vitest";
import { formatCheckinCode, makeCheckinCode, parseCheckinCode } from "../../src/shared/checkin";

describe("the check-in code", () => {
  it("is 11 random characters and a check character, printed in three groups of four, and reads back", () => {
    const code = makeCheckinCode(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 200]));
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
    expect(code.slice(0, 11)).toBe("0123456789Z");
    expect(formatCheckinCode(code)).toMatch(/^.{4}-.{4}-.{4}$/);
    expect(parseCheckinCode(formatCheckinCode(code))).toBe(code);
  });

  it("reads what a volunteer types: any case, spaces and dashes, O for 0 and I or L for 1", () => {
    const code = makeCheckinCode(new Uint8Array([0, 1, 0, 1, 10, 11, 12, 13, 14, 15, 16]));
    const typed = ` ${code.slice(0, 6).toLowerCase().replace(/0/g, "o").replace(/1/g, "l")} ${code.slice(6)} `;
    expect(parseCheckinCode(typed)).toBe(code);
  });

  it("refuses a typo, a forged check character, another length, other characters and non-text", () => {
    const code = makeCheckinCode(crypto.getRandomValues(new Uint8Array(16)));
    const swapped = code[0] === code[1] ? null : code[1]! + code[0]! + code.slice(2);
    if (swapped) expect(parseCheckinCode(swapped)).toBeNull();
    const last = code.at(-1) === "A" ? "B" : "A";
    expect(parseCheckinCode(code.slice(0, -1) + last)).toBeNull();
    expect(parseCheckinCode(code.slice(0, -1))).toBeNull();
    expect(parseCheckinCode(`${code}0`)).toBeNull();
    expect(parseCheckinCode(code.replace(/.$/, "U"))).toBeNull();
    expect(parseCheckinCode("https://example.se/kvitto/1")).toBeNull();
    expect(parseCheckinCode(42)).toBeNull();
    expect(parseCheckinCode("x".repeat(1000))).toBeNull();
  });

  it("gives 1 in 32 typos through at most, over many codes", () => {
    let caught = 0;
    const rounds = 2000;
    for (let i = 0; i < rounds; i += 1) {
      const code = makeCheckinCode(crypto.getRandomValues(new Uint8Array(16)));
      const pos = i % 11;
      const other = code[pos] === "7" ? "8" : "7";
      if (parseCheckinCode(code.slice(0, pos) + other + code.slice(pos + 1)) === null) caught += 1;
    }
    expect(caught / rounds).toBeGreaterThan(0.9);
  });
});
