/**
 * The gallery rules (src/shared/gallery.ts): which years the index shows, which widths a photo is stored in, the
 * bucket keys a request may ask for, and how a list line becomes the thumbnail's and the carousel's srcset. Also
 * that the demo plan's addresses (scripts/seed/gallery-plan.mjs) follow the same scheme.
 */
import { describe, expect, it } from "vitest";
import { DEMO_WIDTHS, galleryImageUrl, galleryPlan, galleryUrl } from "../../scripts/seed/gallery-plan.mjs";
import { listStatements, photoName } from "../../scripts/gallery-add.mjs";
import {
  CAROUSEL_WIDTHS,
  carouselSource,
  downloadName,
  galleryKey,
  galleryUrl as sharedGalleryUrl,
  galleryYears,
  IMAGE_WIDTHS,
  keyForRequest,
  parseGalleryList,
  parseGalleryUrl,
  THUMBNAIL_WIDTHS,
  thumbnailSource,
  widthsFor,
} from "../../src/shared/gallery";

describe("gallery rules", () => {
  it("shows the years from the one before the season down to 2014", () => {
    expect(galleryYears(2025)).toEqual([2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017, 2016, 2015, 2014]);
    expect(galleryYears(2015)).toEqual([2014]);
    expect(galleryYears(2014)).toEqual([]);
  });

  it("keeps thumbnails within 150–640 px and the carousel within 300–2560 px", () => {
    for (const w of THUMBNAIL_WIDTHS) expect(w >= 150 && w <= 640).toBe(true);
    for (const w of CAROUSEL_WIDTHS) expect(w >= 300 && w <= 2560).toBe(true);
    expect(IMAGE_WIDTHS).toEqual([160, 320, 640, 1280, 1920, 2560]);
  });

  it("never makes a size wider than the original", () => {
    expect(widthsFor(6000)).toEqual([160, 320, 640, 1280, 1920, 2560]);
    expect(widthsFor(2000)).toEqual([160, 320, 640, 1280, 1920]);
    expect(widthsFor(1280)).toEqual([160, 320, 640, 1280]);
    expect(widthsFor(500)).toEqual([160, 320]);
  });

  it("maps a request to a bucket key only for a stored width of a well-formed name", () => {
    expect(keyForRequest("2019", "3fa9c01b2e11-640.jpg")).toBe("2019/3fa9c01b2e11-640.jpg");
    expect(keyForRequest("2019", "01-2560.jpg")).toBe("2019/01-2560.jpg");
    for (const [year, file] of [
      ["2019", "01-500.jpg"],
      ["2019", "01-640.png"],
      ["2019", "01-640.JPG"],
      ["2019", "Abc-640.jpg"],
      ["2019", "a_b-640.jpg"],
      ["2019", "..-640.jpg"],
      ["19", "01-640.jpg"],
      ["2019", "01.jpg"],
      ["2019", "01-640.jpg.bak"],
    ]) {
      expect(keyForRequest(year!, file!), `${year}/${file}`).toBeNull();
    }
    expect(galleryKey(2019, "ab12", 320)).toBe("2019/ab12-320.jpg");
    expect(() => galleryKey(2019, "../x", 320)).toThrow();
  });

  it("expands one of our list lines into the thumbnail's and the carousel's sizes", () => {
    const photo = parseGalleryUrl("/galleri-bilder/2019/abc-1920.jpg\r");
    expect(photo).toEqual({
      url: "/galleri-bilder/2019/abc-1920.jpg",
      widths: [160, 320, 640, 1280, 1920],
      base: "/galleri-bilder/2019/abc",
    });
    expect(thumbnailSource(photo)).toEqual({
      src: "/galleri-bilder/2019/abc-160.jpg",
      srcSet:
        "/galleri-bilder/2019/abc-160.jpg 160w, /galleri-bilder/2019/abc-320.jpg 320w, /galleri-bilder/2019/abc-640.jpg 640w",
    });
    expect(carouselSource(photo)).toEqual({
      src: "/galleri-bilder/2019/abc-1920.jpg",
      srcSet:
        "/galleri-bilder/2019/abc-640.jpg 640w, /galleri-bilder/2019/abc-1280.jpg 1280w, /galleri-bilder/2019/abc-1920.jpg 1920w",
    });
  });

  it("uses what a small original has, and shows a photo hosted elsewhere as it is", () => {
    const small = parseGalleryUrl("/galleri-bilder/2019/abc-320.jpg");
    expect(thumbnailSource(small).srcSet).toBe(
      "/galleri-bilder/2019/abc-160.jpg 160w, /galleri-bilder/2019/abc-320.jpg 320w",
    );
    expect(carouselSource(small)).toEqual({
      src: "/galleri-bilder/2019/abc-320.jpg",
      srcSet: "/galleri-bilder/2019/abc-320.jpg 320w",
    });
    const other = parseGalleryUrl("https://example.org/bilder/lopp.jpg");
    expect(other.base).toBeNull();
    expect(thumbnailSource(other)).toEqual({ src: "https://example.org/bilder/lopp.jpg" });
    expect(carouselSource(other)).toEqual({ src: "https://example.org/bilder/lopp.jpg" });
    // A width the site never makes is not ours either (no guessed sizes).
    expect(parseGalleryUrl("/galleri-bilder/2019/abc-500.jpg").base).toBeNull();
  });

  it("reads a list: one URL a line, blank lines skipped, order kept", () => {
    const photos = parseGalleryList("/galleri-bilder/2019/b-640.jpg\n\n/galleri-bilder/2019/a-1280.jpg\n");
    expect(photos.map((p) => p.url)).toEqual(["/galleri-bilder/2019/b-640.jpg", "/galleri-bilder/2019/a-1280.jpg"]);
    expect(parseGalleryList("\n  \n")).toEqual([]);
  });

  it("names a download after the site, the year and the photo's place", () => {
    expect(downloadName("Byloppet", 2019, 6, "/galleri-bilder/2019/abc-1920.jpg")).toBe("byloppet-2019-07.jpg");
    expect(downloadName("Byloppet", 2019, 0, "https://example.org/x.PNG")).toBe("byloppet-2019-01.png");
  });
});

describe("the demo plan and the organiser's command", () => {
  it("lists each demo photo by its largest size, an address the rules read back", () => {
    for (const { year, files } of galleryPlan()) {
      for (const name of files) {
        const photo = parseGalleryUrl(galleryUrl(year, name));
        expect(photo.widths).toEqual(DEMO_WIDTHS);
        expect(photo.base).toBe(`/galleri-bilder/${year}/${name}`);
        for (const w of DEMO_WIDTHS) expect(galleryImageUrl(year, name, w)).toBe(sharedGalleryUrl(year, name, w));
      }
    }
  });

  it("names a photo by its content and replaces a year's list with quoted URLs", () => {
    const a = photoName(new Uint8Array([1, 2, 3]));
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(photoName(new Uint8Array([1, 2, 3]))).toBe(a);
    expect(photoName(new Uint8Array([1, 2, 4]))).not.toBe(a);
    expect(listStatements(2019, ["/galleri-bilder/2019/a-640.jpg", "x'y"])).toEqual([
      "DELETE FROM gallery_images WHERE year = 2019;",
      "INSERT INTO gallery_images (year, position, url) VALUES (2019, 1, '/galleri-bilder/2019/a-640.jpg');",
      "INSERT INTO gallery_images (year, position, url) VALUES (2019, 2, 'x''y');",
    ]);
  });
});
