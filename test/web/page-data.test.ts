/**
 * A data page's data in its first HTML (shared/page-render.ts) and read back before hydration (web/app/page-data.ts):
 * no text in the data ends the script element, what goes in comes out, and what changes on race day is asked for
 * again at once.
 */
import { describe, expect, it } from "vitest";
import { pageDataScript, PAGE_DATA_ID, type PageData } from "../../src/shared/page-render";
import { readPageData, seedPageData } from "../../src/web/app/page-data";
import { createQueryClient } from "../../src/web/app/query-client";

const hostile = "</script><script>alert(1)</script><!-- \u2028\u2029 Åsa Öberg";

const data: PageData = {
  queries: [
    { key: ["public", "races"], data: [{ part: "race-250913-56", state: "started" }], refresh: true },
    { key: ["records"], data: [{ name: hostile, time: "18:02.100" }] },
  ],
};

/** The element's text as a browser's parser sees it: everything up to the first `</script`. */
function scriptText(html: string): string {
  const open = `<script type="application/json" id="${PAGE_DATA_ID}">`;
  expect(html.startsWith(open)).toBe(true);
  const rest = html.slice(open.length);
  return rest.slice(0, rest.search(/<\/script/i));
}

/** Enough of a Document for readPageData. */
function docWith(text: string | null): Document {
  return {
    getElementById: (id: string) => (id === PAGE_DATA_ID && text !== null ? { textContent: text } : null),
  } as unknown as Document;
}

describe("pageDataScript", () => {
  it("is a JSON script whose element no text in the data can end, and reads back unchanged", () => {
    const html = pageDataScript(data);
    // The only `</script` is the element's own end.
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.endsWith("</script>")).toBe(true);
    expect(html).not.toMatch(/<!--|\u2028|\u2029/);
    expect(JSON.parse(scriptText(html))).toEqual(data);
  });
});

describe("readPageData", () => {
  it("reads the data the Worker wrote", () => {
    expect(readPageData(docWith(scriptText(pageDataScript(data))))).toEqual(data);
  });

  it("is null without the element, with broken JSON, or without a list of queries", () => {
    expect(readPageData(docWith(null))).toBeNull();
    expect(readPageData(docWith(""))).toBeNull();
    expect(readPageData(docWith("{not json"))).toBeNull();
    expect(readPageData(docWith('{"queries":{}}'))).toBeNull();
    expect(readPageData(docWith("null"))).toBeNull();
  });
});

describe("seedPageData", () => {
  it("puts each query into the cache; race-day data as already old, so it is asked for again once rendered", () => {
    const client = createQueryClient();
    seedPageData(client, data, 1_000_000);
    expect(client.getQueryData(["records"])).toEqual(data.queries[1]!.data);
    expect(client.getQueryData(["public", "races"])).toEqual(data.queries[0]!.data);
    expect(client.getQueryState(["records"])?.dataUpdatedAt).toBe(1_000_000);
    expect(client.getQueryState(["public", "races"])?.dataUpdatedAt).toBe(0);
  });
});
