import { describe, expect, it } from "vitest";
import {
  campaignPayid,
  checkEpassiInvitation,
  EPASSI_MESSAGES,
  isCampaignPayid,
  isCampaignValidAt,
  isValidCampaignCode,
  isValidMaxUses,
  normalizeCode,
  payidLabel,
} from "../../src/shared/campaign";
import { stockholmToEpoch } from "../../src/shared/stockholm";

const NOW = stockholmToEpoch("2025-08-01T12:00");

describe("codes", () => {
  it("normalises by trimming and upper-casing", () => {
    expect(normalizeCode("  vanlopp50 ")).toBe("VANLOPP50");
    expect(normalizeCode("tidigfågel")).toBe("TIDIGFÅGEL");
  });
});

describe("isCampaignValidAt", () => {
  it("is valid without limits", () => {
    expect(isCampaignValidAt({}, NOW)).toBe(true);
    expect(isCampaignValidAt({ validUntil: null, maxUses: null }, NOW)).toBe(true);
  });

  it("validUntil as a Stockholm time is inclusive", () => {
    const c = { validUntil: "2025-10-01T23:59:59" };
    expect(isCampaignValidAt(c, stockholmToEpoch("2025-10-01T23:59:59"))).toBe(true);
    expect(isCampaignValidAt(c, stockholmToEpoch("2025-10-02T00:00:00"))).toBe(false);
    const day = { validUntil: "2025-10-01" };
    expect(isCampaignValidAt(day, stockholmToEpoch("2025-10-01T23:59:59"))).toBe(true);
    expect(isCampaignValidAt(day, stockholmToEpoch("2025-10-02T00:00"))).toBe(false);
  });

  it("validUntil as epoch ms is inclusive", () => {
    expect(isCampaignValidAt({ validUntil: NOW }, NOW)).toBe(true);
    expect(isCampaignValidAt({ validUntil: NOW }, NOW + 1)).toBe(false);
  });

  it("an unparseable validUntil is invalid, not eternal", () => {
    expect(isCampaignValidAt({ validUntil: "snart" }, NOW)).toBe(false);
  });

  it("disabled or used up is invalid", () => {
    expect(isCampaignValidAt({ disabled: true }, NOW)).toBe(false);
    expect(isCampaignValidAt({ maxUses: 3, uses: 2 }, NOW)).toBe(true);
    expect(isCampaignValidAt({ maxUses: 3, uses: 3 }, NOW)).toBe(false);
    expect(isCampaignValidAt({ maxUses: 0 }, NOW)).toBe(false);
  });
});

describe("payids", () => {
  it("a payid containing 'kampanj' is a campaign payment", () => {
    expect(isCampaignPayid("kampanj_VANLOPP50")).toBe(true);
    expect(isCampaignPayid("x-kampanj")).toBe(true);
    expect(isCampaignPayid("A1B2C3")).toBe(false);
    expect(isCampaignPayid(null)).toBe(false);
  });

  it("builds a campaign payid from the code", () => {
    expect(campaignPayid(" vanlopp50", "ab12")).toBe("kampanj_VANLOPP50_ab12");
    expect(isCampaignPayid(campaignPayid("X", "1"))).toBe(true);
  });

  it("labels a payid by the part after the first underscore when the amount is 0", () => {
    expect(payidLabel("kampanj_FRIBILJETT", 0)).toBe("FRIBILJETT");
    expect(payidLabel("kampanj_FRIBILJETT_3f9a", 0)).toBe("FRIBILJETT");
    expect(payidLabel("kampanj_", 0)).toBeNull();
    expect(payidLabel("kampanj_FRIBILJETT", 150)).toBeNull();
    expect(payidLabel("kampanj_FRIBILJETT", null)).toBeNull();
    expect(payidLabel("ABC123", 0)).toBeNull();
    expect(payidLabel("kampanj_", 0)).toBeNull();
    expect(payidLabel(undefined, 0)).toBeNull();
  });
});

describe("organiser-made code limits", () => {
  it("a code is 3–20 of A–Z and 0–9 (already upper-cased)", () => {
    expect(isValidCampaignCode("KLUBBEN25")).toBe(true);
    expect(isValidCampaignCode("AB")).toBe(false);
    expect(isValidCampaignCode("A".repeat(21))).toBe(false);
    expect(isValidCampaignCode("klubben")).toBe(false);
    expect(isValidCampaignCode("KLUBB-25")).toBe(false);
  });

  it("a use limit is a whole number 1–100000", () => {
    expect(isValidMaxUses(1)).toBe(true);
    expect(isValidMaxUses(100_000)).toBe(true);
    expect(isValidMaxUses(0)).toBe(false);
    expect(isValidMaxUses(100_001)).toBe(false);
    expect(isValidMaxUses(2.5)).toBe(false);
  });
});

describe("Epassi invitation input", () => {
  it("trims the name, trims and lower-cases the address", () => {
    expect(checkEpassiInvitation({ name: "  Eva Ek ", email: " Eva.Ek@Example.SE " })).toEqual({
      ok: true,
      value: { name: "Eva Ek", email: "eva.ek@example.se" },
    });
  });

  it("answers the spec's messages per field", () => {
    expect(checkEpassiInvitation({ name: undefined, email: undefined })).toEqual({
      ok: false,
      errors: { name: "Name is required", email: "E-mail is required" },
    });
    expect(checkEpassiInvitation({ name: " ", email: "eva@example.se" })).toEqual({
      ok: false,
      errors: { name: EPASSI_MESSAGES.nameRequired },
    });
    expect(checkEpassiInvitation({ name: 12, email: "eva@example.se" })).toMatchObject({
      errors: { name: "Name is required" },
    });
    for (const email of [
      "eva",
      "eva@",
      "@example.se",
      "eva@example",
      "eva@exa mple.se",
      "eva@example..se",
      "a@b@c.se",
    ]) {
      expect(checkEpassiInvitation({ name: "Eva", email }), email).toEqual({
        ok: false,
        errors: { email: "E-mail must be valid" },
      });
    }
    expect(checkEpassiInvitation({ name: "Eva", email: 5 })).toMatchObject({ errors: { email: "E-mail is required" } });
  });

  it("limits the name to 100 characters on one line, and the address to 254", () => {
    expect(checkEpassiInvitation({ name: "x".repeat(100), email: "e@example.se" }).ok).toBe(true);
    expect(checkEpassiInvitation({ name: "x".repeat(101), email: "e@example.se" })).toMatchObject({
      errors: { name: EPASSI_MESSAGES.nameTooLong },
    });
    expect(checkEpassiInvitation({ name: "Eva\r\nBcc: x", email: "e@example.se" })).toMatchObject({
      errors: { name: EPASSI_MESSAGES.nameCharacters },
    });
    const local = "a".repeat(254 - "@example.se".length);
    expect(checkEpassiInvitation({ name: "Eva", email: `${local}@example.se` }).ok).toBe(true);
    expect(checkEpassiInvitation({ name: "Eva", email: `${local}a@example.se` })).toMatchObject({
      errors: { email: "E-mail must be valid" },
    });
  });
});
