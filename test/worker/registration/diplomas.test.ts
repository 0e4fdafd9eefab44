/** The diploma's and the results mail's time (issue 28, items 3 and 4): tenths, rounded up as athletics does. */
import { describe, expect, it } from "vitest";
import { diplomaDocument, familyTimeText } from "../../../src/worker/registration/diplomas";

describe("familyTimeText", () => {
  it("rounds up to the tenth, never showing a faster time", () => {
    expect(familyTimeText("05:10.123")).toBe("05:10,2");
    expect(familyTimeText("05:10.100")).toBe("05:10,1");
    expect(familyTimeText("05:10.000")).toBe("05:10,0");
    expect(familyTimeText("59:59.950")).toBe("60:00,0");
    expect(familyTimeText("61:02.003")).toBe("61:02,1");
    expect(familyTimeText("okänd")).toBe("okänd");
  });
});

describe("diplomaDocument", () => {
  it("makes one A4 page per runner, the name escaped", () => {
    const html = diplomaDocument(
      [
        { name: "Ola <b>Lind</b>", distance: 1600, time: "05:10.123", part: "race-250913-16", date: "2025-09-13" },
        { name: "Eva Lind", distance: 5600, time: "25:00.000", part: "race-250913-56", date: "2025-09-13" },
      ],
      { siteName: "Byloppet" },
    );
    expect(html.match(/class="diploma"/g)).toHaveLength(2);
    expect(html).toContain("@page{size:A4;margin:0}");
    expect(html).toContain("Ola &lt;b&gt;Lind&lt;/b&gt;");
    expect(html).toContain("1,6 km");
    expect(html).toContain("05:10,2");
    expect(html).toContain("13 september 2025");
    expect(html).toContain("Byloppet 2025");
  });
});
