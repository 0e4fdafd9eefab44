/**
 * The organisers' campaign-code API: list (built-in + own, with usage), create, disable/enable; admin only.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, loginAdmin, post, storedState, visitorJar } from "../helpers";

interface CodeView {
  code: string;
  rule: string;
  validUntil: string | null;
  maxUses: number | null;
  uses: number;
  disabled: boolean;
  builtin: boolean;
  note: string;
  paidOrders: number;
}

async function list(jar: Awaited<ReturnType<typeof loginAdmin>>): Promise<CodeView[]> {
  const res = await get("/admin/api/kampanjkoder", { jar });
  expect(res.status).toBe(200);
  return ((await res.json()) as { kampanjkoder: CodeView[] }).kampanjkoder;
}

async function storedCodes() {
  return (await env.DB.prepare("SELECT * FROM campaign_codes ORDER BY code").all()).results;
}

describe("admin campaign codes", () => {
  it("is for admins only: 401 for a visitor or nobody, 403 from another site", async () => {
    expect((await get("/admin/api/kampanjkoder")).status).toBe(401);
    const visitor = await visitorJar("besokare@example.se");
    expect((await get("/admin/api/kampanjkoder", { jar: visitor })).status).toBe(401);
    expect((await post("/admin/api/kampanjkoder", { code: "HACK123", rule: "free" }, { jar: visitor })).status).toBe(
      401,
    );
    const admin = await loginAdmin();
    const crossSite = await call("/admin/api/kampanjkoder", {
      method: "POST",
      jar: admin,
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ code: "HACK123", rule: "free" }),
    });
    expect(crossSite.status).toBe(403);
    expect((await storedCodes()).map((r) => r.code)).not.toContain("HACK123");
  });

  it("lists the season's built-in codes (and stores them)", async () => {
    const jar = await loginAdmin();
    const codes = await list(jar);
    expect(codes.filter((c) => c.builtin)).toEqual([
      // A free code without a cap of its own gets the default one.
      expect.objectContaining({ code: "FRIBILJETT", rule: "free", maxUses: 20, builtin: true, disabled: false }),
      expect.objectContaining({ code: "TIDIGFAGEL", rule: "minus50", validUntil: "2025-10-01", builtin: true }),
      expect.objectContaining({ code: "VANLOPP50", rule: "flat50", validUntil: null, maxUses: null, builtin: true }),
    ]);
    expect((await storedCodes()).filter((r) => r.builtin).length).toBe(3);
    // Listing twice changes nothing.
    expect(await list(jar)).toEqual(codes);
  });

  it("creates a code: upper-cased, 201, listed with its rule, end date and cap", async () => {
    const jar = await loginAdmin();
    const res = await post(
      "/admin/api/kampanjkoder",
      { code: " sponsor25 ", rule: "minus50", validUntil: "2025-09-01", maxUses: 10, note: "Bageriet" },
      { jar },
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as CodeView;
    expect(created).toEqual({
      code: "SPONSOR25",
      rule: "minus50",
      validUntil: "2025-09-01",
      maxUses: 10,
      uses: 0,
      disabled: false,
      builtin: false,
      note: "Bageriet",
      paidOrders: 0,
    });
    expect(await list(jar)).toContainEqual(created);
    const row = (await storedCodes()).find((r) => r.code === "SPONSOR25")!;
    // The whole last day counts, in Stockholm time.
    expect(row.valid_until).toBe(Date.parse("2025-09-02T00:00:00+02:00") - 1);
    expect(row.created_by).toBe("arrangor@example.se");
    const audit = await env.DB.prepare("SELECT * FROM audit_log WHERE action = 'campaign.create' AND subject = ?")
      .bind("SPONSOR25")
      .first();
    expect(audit).toMatchObject({ actor: "arrangor@example.se" });
  });

  it("refuses a code that exists (own or built-in) with 409", async () => {
    const jar = await loginAdmin();
    expect((await post("/admin/api/kampanjkoder", { code: "DUBBEL1X", rule: "free" }, { jar })).status).toBe(201);
    const before = await storedCodes();
    for (const code of ["DUBBEL1X", "dubbel1x", "FRIBILJETT", "vanlopp50"]) {
      const res = await post("/admin/api/kampanjkoder", { code, rule: "flat50" }, { jar });
      expect(res.status, code).toBe(409);
      expect(await res.json()).toMatchObject({ error: "Koden finns redan." });
    }
    expect(await storedCodes()).toEqual(before);
  });

  it("refuses bad input with Swedish messages and stores nothing", async () => {
    const jar = await loginAdmin();
    await list(jar);
    const before = { codes: await storedCodes(), counts: await storedState() };
    const cases: [unknown, RegExp][] = [
      [{ code: "AB", rule: "free" }, /3–20 tecken/],
      [{ code: "A".repeat(21), rule: "free" }, /3–20 tecken/],
      [{ code: "ÅÄÖ123", rule: "free" }, /3–20 tecken/],
      [{ code: "MED MELLANSLAG", rule: "free" }, /3–20 tecken/],
      [{ code: "<script>", rule: "free" }, /3–20 tecken/],
      [{ code: 12345, rule: "free" }, /3–20 tecken/],
      [{ rule: "free" }, /3–20 tecken/],
      [{ code: "BRAKOD1" }, /Välj regel/],
      [{ code: "BRAKOD1", rule: "half" }, /Välj regel/],
      [{ code: "BRAKOD1", rule: "free", validUntil: "2025-13-01" }, /ÅÅÅÅ-MM-DD/],
      [{ code: "BRAKOD1", rule: "free", validUntil: "imorgon" }, /ÅÅÅÅ-MM-DD/],
      [{ code: "BRAKOD1", rule: "free", validUntil: 20250901 }, /ÅÅÅÅ-MM-DD/],
      [{ code: "BRAKOD1", rule: "free", maxUses: 0 }, /heltal/],
      [{ code: "BRAKOD1", rule: "free", maxUses: -3 }, /heltal/],
      [{ code: "BRAKOD1", rule: "free", maxUses: 2.5 }, /heltal/],
      [{ code: "BRAKOD1", rule: "free", maxUses: "5" }, /heltal/],
      [{ code: "BRAKOD1", rule: "free", note: "x".repeat(201) }, /högst 200/],
      [["BRAKOD1"], /Ogiltig kampanjkod/],
    ];
    for (const [body, message] of cases) {
      const res = await post("/admin/api/kampanjkoder", body, { jar });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: string }).error, JSON.stringify(body)).toMatch(message);
    }
    expect(await storedCodes()).toEqual(before.codes);
    expect(await storedState()).toEqual(before.counts);
  });

  it("disables and enables a code (built-in too); an unknown code is 404", async () => {
    const jar = await loginAdmin();
    await post("/admin/api/kampanjkoder", { code: "PAUS123X", rule: "flat50" }, { jar });
    const off = await post("/admin/api/kampanjkoder/paus123x/disable", {}, { jar });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ code: "PAUS123X", disabled: true });
    expect((await list(jar)).find((c) => c.code === "PAUS123X")?.disabled).toBe(true);
    const on = await post("/admin/api/kampanjkoder/PAUS123X/enable", {}, { jar });
    expect(await on.json()).toMatchObject({ disabled: false });

    expect(await (await post("/admin/api/kampanjkoder/FRIBILJETT/disable", {}, { jar })).json()).toMatchObject({
      builtin: true,
      disabled: true,
    });
    // Listing again (which re-reads the season config) keeps the organiser's choice.
    expect((await list(jar)).find((c) => c.code === "FRIBILJETT")?.disabled).toBe(true);
    await post("/admin/api/kampanjkoder/FRIBILJETT/enable", {}, { jar });

    const before = await storedCodes();
    const missing = await post("/admin/api/kampanjkoder/FINNSINTE/disable", {}, { jar });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Kampanjkoden finns inte." });
    expect((await post(`/admin/api/kampanjkoder/${"X".repeat(60)}/disable`, {}, { jar })).status).toBe(400);
    expect(await storedCodes()).toEqual(before);
  });

  it("counts paid orders per code from the payments", async () => {
    const jar = await loginAdmin();
    await post("/admin/api/kampanjkoder", { code: "RAKNA1XX", rule: "flat50" }, { jar });
    const now = Date.now();
    for (const [id, status] of [
      ["kampanj_RAKNA1XX_a", "PAID"],
      ["kampanj_RAKNA1XX_b", "PAID"],
      ["kampanj_RAKNA1XX_c", "CREATED"],
    ]) {
      await env.DB.prepare(
        "INSERT INTO payments (id, season, amount, status, date_created, kampanj) VALUES (?, 2025, 50, ?, ?, 'RAKNA1XX')",
      )
        .bind(id, status, now)
        .run();
    }
    expect((await list(jar)).find((c) => c.code === "RAKNA1XX")?.paidOrders).toBe(2);
  });
});
