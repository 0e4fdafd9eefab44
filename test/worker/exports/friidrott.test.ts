/** GET /admin/api/export/friidrott.csv (issue 28, item 7): an ended race's results for the federation. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, loginAdmin } from "../helpers";
import { addRunner, finish, newRace, startEarlier, tapId, useRaceYear } from "../../durable/race/race-helpers";

useRaceYear(2075);

describe("the federation export", () => {
  it("an ended race: a BOM, ';', CRLF, placing, derived birth year, h:mm:ss, DNS; formula-safe; audited", async () => {
    const jar = await loginAdmin();
    const part = await newRace(jar);
    const ella = await addRunner(jar, part, { firstname: "Ella", lastname: "Berg", age: 11, bib: 601 });
    const sneaky = await addRunner(jar, part, { firstname: "=HYPERLINK(1)", lastname: "X", age: 40, bib: 602 });
    const dns = await addRunner(jar, part, { firstname: "Olle", lastname: "Dns", age: 9, bib: 603 });
    expect((await startEarlier(jar, part)).status).toBe(200);
    expect((await finish(jar, part, ella.sort, { tap: tapId(), at: Date.now() - 120_000 })).status).toBe(200);
    expect((await finish(jar, part, sneaky.sort, { tap: tapId(), at: Date.now() - 60_000 })).status).toBe(200);
    expect((await get(`/admin/api/races/dns/${part}/${dns.sort}/on`, { jar })).status).toBe(200);

    const early = await get(`/admin/api/export/friidrott.csv?race=${part}`, { jar });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: string }).error).toMatch(/inte avslutat/);

    expect((await get(`/admin/api/races/end/${part}`, { jar })).status).toBe(200);
    const res = await get(`/admin/api/export/friidrott.csv?race=${part}`, { jar });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="friidrott-${part}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    const year = Number(part.slice(5, 7)) + 2000;
    expect(lines[0]).toBe("Placering;Namn;Födelseår (beräknat);Förening;Klass;Tid;Status");
    expect(lines[1]).toMatch(new RegExp(`^1;Ella Berg;${year - 11};;Dam;0:0\\d:\\d\\d;$`));
    expect(lines[2]).toMatch(/^2;"'=HYPERLINK\(1\) X";/);
    expect(lines[3]).toBe(`;Olle Dns;${year - 9};;Dam;;DNS`);
    const audited = await env.DB.prepare(
      "SELECT actor FROM audit_log WHERE action = 'export.friidrott' AND subject = ?",
    )
      .bind(part)
      .all();
    expect(audited.results).toEqual([{ actor: "arrangor@example.se" }]);
  });

  it("a race that does not exist is 404, a malformed one 400, and an anonymous caller 401", async () => {
    const jar = await loginAdmin();
    expect((await get("/admin/api/export/friidrott.csv?race=race-751231-56", { jar })).status).toBe(404);
    expect((await get("/admin/api/export/friidrott.csv?race=%3Cscript%3E", { jar })).status).toBe(400);
    expect((await get("/admin/api/export/friidrott.csv", { jar })).status).toBe(400);
    expect((await call("/admin/api/export/friidrott.csv?race=race-751231-56")).status).toBe(401);
  });
});
