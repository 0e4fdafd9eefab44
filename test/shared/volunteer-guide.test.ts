/**
 * The volunteers' guide ('Hjälp', src/web/features/admin/help/volunteer-guide.ts) stays true to the screens:
 * - every text it quotes in '…' is a text of the app: a string, a template's text or a JSX text in src/web or
 *   src/shared (where the screens take some words from, such as 'Officiella'), outside the guide's own folder, as a
 *   whole word ('Start' is not found in 'Starta'); a '…' inside a quote stands for a name or a number;
 * - its pictures are the files in public/hjalp/ (WebP, the sizes the guide gives, none unused), under ~400 KB.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { GUIDE_SECTIONS, guideParts, quotedScreenTexts } from "../../src/web/features/admin/help/volunteer-guide";

const ROOT = path.resolve(import.meta.dirname, "../..");
const GUIDE_DIR = path.join(ROOT, "src/web/features/admin/help");
const PICTURES = path.join(ROOT, "public/hjalp");
const MAX_PICTURE_BYTES = 400_000;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return full === GUIDE_DIR ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The texts a source file can put on a screen: its strings, templates' texts and JSX texts (comments are not). */
function textsOf(file: string, code: string): string[] {
  const source = ts.createSourceFile(
    file,
    code,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      texts.push(node.text);
    } else if (ts.isJsxText(node)) {
      // As React renders it: the lines of a JSX text joined by single spaces.
      texts.push(node.text.replace(/\s*\n\s*/g, " ").trim());
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts.filter((t) => t.trim() !== "");
}

/** The screen texts of the files that could hold one of `quotes` (only those are parsed: the machine is shared). */
function screenTexts(files: readonly string[], quotes: readonly string[]): string[] {
  const parts = quotes.flatMap((q) => q.split("…").map((p) => p.trim())).filter(Boolean);
  return files.flatMap((file) => {
    const code = readFileSync(file, "utf8");
    return parts.some((p) => code.includes(p)) ? textsOf(file, code) : [];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `quote` is among `texts`: each part between '…' as whole words of one text. */
function foundIn(quote: string, texts: readonly string[]): boolean {
  const parts = quote
    .split("…")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return false;
  return parts.every((part) => {
    const word = new RegExp(`(?<![\\p{L}\\p{N}])${escape(part)}(?![\\p{L}\\p{N}])`, "u");
    return texts.some((t) => word.test(t));
  });
}

describe("the texts the guide quotes", () => {
  test("the matcher: whole words, '…' for a name, nothing for a text that is not there", () => {
    expect(foundIn("Starta", ["Starta (", " i mål)"])).toBe(true);
    expect(foundIn("Start", ["Starta ("])).toBe(false);
    expect(foundIn("Ny tid för …?", ["Ny tid för ", "?"])).toBe(true);
    expect(foundIn("Ny tid för …?", ["Ny tid för "])).toBe(false);
    expect(foundIn("Offline.", ["Offline."])).toBe(true);
    expect(foundIn("Avsluta loppet nu", ["Avsluta lopp"])).toBe(false);
    expect(foundIn("…", ["…"])).toBe(false);
  });

  test("each is written in '…' only around screen texts (no stray quote mark)", () => {
    for (const section of GUIDE_SECTIONS) {
      for (const text of [section.title, ...section.steps]) {
        expect((text.match(/'/g) ?? []).length % 2, text).toBe(0);
      }
    }
  });

  test("every quoted text is a text of src/web or src/shared", { timeout: 60_000 }, () => {
    const quoted = quotedScreenTexts();
    const files = [...sourceFiles(path.join(ROOT, "src/web")), ...sourceFiles(path.join(ROOT, "src/shared"))];
    const texts = screenTexts(files, quoted);
    // The guide names the buttons of the desk, the race screen, rapid timing, the review list and the end.
    expect(quoted.length).toBeGreaterThan(40);
    for (const name of ["Starta", "Mål!", "Att granska", "Avsluta lopp", "Officiella", "Hämtat", "Hjälp"]) {
      expect(quoted).toContain(name);
    }
    expect(quoted.filter((quote) => !foundIn(quote, texts))).toEqual([]);
  });

  test("the guide's parts: plain text and screen texts in order", () => {
    expect(guideParts("Tryck 'Starta' när 'Mål!' syns.")).toEqual([
      { text: "Tryck ", screen: false },
      { text: "Starta", screen: true },
      { text: " när ", screen: false },
      { text: "Mål!", screen: true },
      { text: " syns.", screen: false },
    ]);
  });
});

describe("the guide's pictures", () => {
  const images = GUIDE_SECTIONS.flatMap((s) => s.images);

  test("each is a WebP in public/hjalp/ of the size the guide gives", async () => {
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) {
      expect(img.src).toMatch(/^\/hjalp\/[a-z0-9-]+\.webp$/);
      const meta = await sharp(path.join(ROOT, "public", img.src)).metadata();
      expect({ src: img.src, format: meta.format, width: meta.width, height: meta.height }).toEqual({
        src: img.src,
        format: "webp",
        width: img.width,
        height: img.height,
      });
    }
  });

  test("every file in public/hjalp/ is used, and all of them stay small enough to print and keep offline", () => {
    const files = readdirSync(PICTURES).sort();
    expect(files).toEqual(images.map((img) => path.basename(img.src)).sort());
    const bytes = files.reduce((sum, f) => sum + statSync(path.join(PICTURES, f)).size, 0);
    expect(bytes).toBeLessThan(MAX_PICTURE_BYTES);
  });
});
