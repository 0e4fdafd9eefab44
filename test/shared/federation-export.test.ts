import { describe, expect, it } from "vitest";
import { federationRows, formatHours } from "../../src/shared/federation-export";

const START = Date.UTC(2025, 8, 13, 9, 45);
const runner = (firstname: string, finished: number | null, extra: Partial<{ age: number; dns: boolean }> = {}) => ({
  firstname,
  lastname: "Ek",
  age: extra.age ?? 12,
  company: "IK Ek",
  group: "Dam",
  finished,
  dns: extra.dns,
});

describe("the federation export's rows", () => {
  it("places finishers by time (rounded up to the second, equal times share a placing), then DNS", () => {
    const rows = federationRows(START, 2025, [
      runner("Dns", null, { dns: true }),
      runner("Trea", START + 1_262_000),
      runner("Etta", START + 1_261_000),
      runner("Tvåa", START + 1_261_500, { age: 44 }),
    ]);
    expect(rows).toEqual([
      [1, "Etta Ek", 2013, "IK Ek", "Dam", "0:21:01", ""],
      [2, "Tvåa Ek", 1981, "IK Ek", "Dam", "0:21:02", ""],
      [2, "Trea Ek", 2013, "IK Ek", "Dam", "0:21:02", ""],
      ["", "Dns Ek", 2013, "IK Ek", "Dam", "", "DNS"],
    ]);
  });

  it("writes hours past the hour", () => {
    expect(formatHours(3_723_000)).toBe("1:02:03");
    expect(formatHours(0)).toBe("0:00:00");
  });
});
