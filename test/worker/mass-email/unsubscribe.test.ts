/**
 * The signed unsubscribe link of mass e-mails: a valid link shows a confirmation page (GET changes nothing), its
 * POST unsubscribes without signing in (also as RFC 8058's one-click form POST from a mail client), forged,
 * altered and wrong-purpose tokens change nothing, and later mailings leave the address out.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { keyedHash } from "../../../src/worker/lib/crypto";
import { unsubscribeToken } from "../../../src/worker/mass-email/mailings";
import { call, get, loginAdmin, post, storedState, waitFor } from "../helpers";
import { clearMailingData, mailAddress, outboxTo, registration } from "./mailing-fixtures";

const SECRET = env.SESSION_SECRET;

function b64url(text: string): string {
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function unsubscribed(email: string) {
  return env.DB.prepare("SELECT email, mailing_id FROM unsubscribes WHERE email = ?").bind(email).first();
}

/** A plain browser visit (a person clicking the link in a mail): no SPA header, no session. */
function visit(path: string, init: RequestInit = {}) {
  return call(path, init);
}

describe("unsubscribe link", () => {
  beforeEach(clearMailingData);

  it("GET shows a Swedish confirmation page with a button and changes nothing; POST unsubscribes", async () => {
    const email = mailAddress();
    const path = `/unsubscribe/${await unsubscribeToken(SECRET, 7, email)}`;
    const before = await storedState();
    const page = await visit(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain('<html lang="sv">');
    expect(html).toContain(email);
    expect(html).toMatch(/<form method="post"><button type="submit">Avsluta utskicken<\/button><\/form>/);
    expect(await storedState()).toEqual(before);

    // The page's button: a plain form POST from our own page, no session, no SPA header.
    const done = await visit(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
      body: "",
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Klart! Du får inga fler utskick");
    expect(await unsubscribed(email)).toEqual({ email, mailing_id: 7 });
    // Following the link again says so; posting again changes nothing.
    expect(await (await visit(path)).text()).toContain("får redan inga utskick");
    await visit(path, { method: "POST" });
    expect(await unsubscribed(email)).toEqual({ email, mailing_id: 7 });
  });

  it("accepts a mail client's one-click POST (RFC 8058) from anywhere", async () => {
    const email = mailAddress("ettklick");
    const res = await visit(`/unsubscribe/${await unsubscribeToken(SECRET, 3, email)}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await unsubscribed(email)).toEqual({ email, mailing_id: 3 });
  });

  it("forged, altered and wrong-purpose tokens change nothing (400 page)", async () => {
    const email = mailAddress("offer");
    const valid = await unsubscribeToken(SECRET, 5, email);
    const [, encoded, signature] = valid.split(".") as [string, string, string];
    const other = mailAddress("annan");
    const flipped = signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0");
    const tokens = [
      // Another address with this address's signature.
      `5.${b64url(other)}.${signature}`,
      // Another mailing.
      `6.${encoded}.${signature}`,
      // One hex digit changed.
      `5.${encoded}.${flipped}`,
      // Signed with another key.
      `5.${encoded}.${await keyedHash("en-helt-annan-hemlighet-som-ar-lang-nog-123", "unsubscribe", `5\u0000${email}`)}`,
      // The server's own key, another purpose (a login-code hash of the same text).
      `5.${encoded}.${await keyedHash(SECRET, "login-code", `5\u0000${email}`)}`,
      // Malformed.
      "",
      "abc",
      `5.${encoded}`,
      `0.${encoded}.${signature}`,
      `5.${encoded}!.${signature}`,
      `5.${encoded}.${signature.toUpperCase()}`,
      `5.${b64url("\u00ff\u00fe")}.${signature}`,
    ];
    const before = await storedState();
    for (const token of tokens) {
      const path = `/unsubscribe/${encodeURIComponent(token)}`;
      const shown = await visit(path);
      if (token === "") {
        expect(shown.status, "empty token").toBe(404);
        continue;
      }
      expect(shown.status, token).toBe(400);
      expect(await shown.text()).toContain("Länken fungerar inte");
      const posted = await visit(path, { method: "POST", body: "List-Unsubscribe=One-Click" });
      expect(posted.status, token).toBe(400);
    }
    expect(await storedState()).toEqual(before);
    expect(await unsubscribed(email)).toBeNull();
    expect(await unsubscribed(other)).toBeNull();
  });

  it("the link in a sent mail works, and later mailings leave the address out", async () => {
    const [leaves, stays] = [mailAddress("a-slutar"), mailAddress("b-stannar")];
    await registration(2025, leaves, [{ firstname: "Sluta", lastname: "Nu" }]);
    await registration(2025, stays, [{ firstname: "Stanna", lastname: "Kvar" }]);
    const admin = await loginAdmin();
    const first = (await (
      await post("/admin/api/send-email-current-runners", { subject: "Första", message: "Hej" }, { jar: admin })
    ).json()) as { id: number; totalRecipients: number };
    expect(first.totalRecipients).toBe(2);
    await waitFor(async () => (await outboxTo(leaves)).length === 1, 15_000, "the first mail");
    const link = /\/unsubscribe\/[^\s]+/.exec((await outboxTo(leaves))[0]!.text)![0];
    expect(link.startsWith(`/unsubscribe/${first.id}.`)).toBe(true);
    expect((await visit(link, { method: "POST" })).status).toBe(200);
    expect(await unsubscribed(leaves)).toEqual({ email: leaves, mailing_id: first.id });

    expect(await (await get("/admin/api/get_current_runners_count_handler", { jar: admin })).json()).toEqual({
      count: 1,
    });
    const second = (await (
      await post("/admin/api/send-email-current-runners", { subject: "Andra", message: "Hej igen" }, { jar: admin })
    ).json()) as { id: number; totalRecipients: number };
    expect(second.totalRecipients).toBe(1);
    await waitFor(async () => (await outboxTo(stays)).length === 2, 15_000, "the second mail");
    expect((await outboxTo(leaves)).map((m) => m.subject)).toEqual(["Första"]);
  });
});
