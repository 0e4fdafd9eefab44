/**
 * The docs stay true to the tree: every repository path and every address that README.md, docs/**\/*.md and
 * bench/README.md name must exist.
 *
 * - Paths: a token in inline code, in an `sh` block or a link target that starts with a repository folder
 *   (src/, test/, scripts/, migrations/, bench/, docs/, public/, .ci/) must be a file or folder of the repository.
 *   A placeholder in it (`<resource>`, `{year}`, `*`, `…`) stands for any name, and at least one must match. A
 *   path under a folder .gitignore names (bench/results/, dist/) is output, made when something runs, and passes.
 *   Every relative link must reach a file, and a link's `#anchor` one of that file's headings.
 * - Addresses: inline code that is an absolute path (`/api/races`, `GET /admin/api/races/finish/{race}/{sort}`)
 *   must be mounted: a route of the real Worker app (src/worker/app.ts, Hono's `app.routes`; with a method, that
 *   method, HEAD answered by GET), a page of the SPA's route table (src/web/app/routes.tsx), a service worker
 *   script (src/web/sw/names.ts) or a static file (public/, the build's /assets/). `{race}`, `<id>` and `…` in an
 *   address match the app's `:param` segments (and a `:param{regex}` must accept a literal segment); a query
 *   (`?since=N`) and an optional part in brackets are left off.
 *
 * - The quick start's test command (the `sh` line whose comment says "every test") is the command .ci/run ends with,
 *   as .ci/run promises.
 *
 * Each check lists every broken path or address of every file at once, and a check of the checker below shows that
 * a renamed file and an unmounted route are caught.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";

// The app's modules import the Workers runtime module for the loopback binding and the object-services entry
// point, which exist only on workerd; nothing of them runs while the app mounts its routes, so Node gets stand-ins.
vi.mock("cloudflare:workers", () => ({ exports: {}, WorkerEntrypoint: class {}, DurableObject: class {} }));

const ROOT = path.join(import.meta.dirname, "..", "..");
const REPO_FOLDERS = ["src", "test", "scripts", "migrations", "bench", "docs", "public", ".ci"];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];

interface Doc {
  file: string;
  text: string;
}

interface Found {
  file: string;
  line: number;
  text: string;
}

interface Address extends Found {
  method: string | null;
  path: string;
}

/** README.md, bench/README.md and every Markdown file under docs/. */
function readDocs(): Doc[] {
  const files = ["README.md", "bench/README.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) files.push(rel);
    }
  };
  walk("docs");
  return files.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }));
}

/** The doc split into prose lines (fenced blocks blanked) and the lines of its `sh` blocks, with line numbers. */
function splitDoc(text: string): { prose: string[]; shell: Map<number, string> } {
  const prose: string[] = [];
  const shell = new Map<number, string>();
  let fence: string | null = null;
  text.split("\n").forEach((line, i) => {
    const opening = /^\s*(`{3,})(\w*)/.exec(line);
    if (fence === null && opening) {
      fence = opening[2] === "sh" || opening[2] === "bash" ? "sh" : "other";
      prose.push("");
    } else if (fence !== null && /^\s*`{3,}\s*$/.test(line)) {
      fence = null;
      prose.push("");
    } else if (fence === null) {
      prose.push(line);
    } else {
      if (fence === "sh") shell.set(i + 1, line);
      prose.push("");
    }
  });
  return { prose, shell };
}

/** Inline code spans of the prose, with their line (a span may not cross a line in these docs' style). */
function codeSpans(doc: Doc): Found[] {
  const spans: Found[] = [];
  splitDoc(doc.text).prose.forEach((line, i) => {
    for (const m of line.matchAll(/(`+)([^`]+?)\1/g)) spans.push({ file: doc.file, line: i + 1, text: m[2]!.trim() });
  });
  return spans;
}

/** Link targets (`[text](target)`) that are not web addresses. */
function links(doc: Doc): Found[] {
  const found: Found[] = [];
  splitDoc(doc.text).prose.forEach((line, i) => {
    const outsideCode = line.replace(/`[^`]*`/g, "");
    for (const m of outsideCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (!/^[a-z]+:/i.test(target)) found.push({ file: doc.file, line: i + 1, text: target });
    }
  });
  return found;
}

const REPO_PATH = new RegExp(`^(?:\\./)?((?:${REPO_FOLDERS.map((f) => f.replace(".", "\\.")).join("|")})/[^\\s]*)`);

/** Repository paths named in inline code and in `sh` blocks. */
function repoPaths(doc: Doc): Found[] {
  const found: Found[] = [];
  const take = (line: number, text: string) => {
    for (const word of text.split(/[\s,;()="'[\]]+/)) {
      const m = REPO_PATH.exec(word);
      if (!m) continue;
      const cleaned = m[1]!.replace(/[.:]+$/, "").replace(/#.*$/, "");
      found.push({ file: doc.file, line, text: cleaned });
    }
  };
  for (const span of codeSpans(doc)) take(span.line, span.text);
  for (const [line, text] of splitDoc(doc.text).shell) take(line, text);
  return found;
}

/** Addresses named in inline code: `METHOD /path` or a bare `/path`. */
function addresses(doc: Doc): Address[] {
  const found: Address[] = [];
  for (const span of codeSpans(doc)) {
    const m = new RegExp(`^(?:(${METHODS.join("|")})\\s+)?(/[^\\s]*)`).exec(span.text);
    if (!m) continue;
    const cleaned = m[2]!
      .replace(/\[[^\]]*\]/g, "") // an optional part, `[?since=N]`
      .replace(/[?#].*$/, "") // the query
      .replace(/[.,;:)]+$/, "");
    if (cleaned === "") continue;
    found.push({ ...span, method: m[1] ?? null, path: cleaned === "" ? "/" : cleaned });
  }
  return found;
}

/** Directory prefixes .gitignore names: output made when something runs, never in a fresh clone. */
function ignoredFolders(): string[] {
  return readFileSync(path.join(ROOT, ".gitignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.endsWith("/") && !line.startsWith("#"))
    .map((line) => line.replace(/^\//, ""));
}

const PLACEHOLDER = /<[^>]*>|\{[^}]*\}|\*|…/;

/** A segment of a doc's address that stands for a value: `{race}`, `<id>`, `{code}.png`, or Hono's own `:raceId`. */
const isPlaceholder = (segment: string) => PLACEHOLDER.test(segment) || /^:[A-Za-z]/.test(segment);

/** Whether a repository path exists; a segment with a placeholder matches any entry of its folder. */
function repoPathExists(rel: string): boolean {
  if (ignoredFolders().some((folder) => rel.startsWith(folder))) return true;
  const segments = rel.replace(/\/$/, "").split("/");
  const walk = (dir: string, rest: string[]): boolean => {
    if (rest.length === 0) return true;
    const [segment, ...more] = rest as [string, ...string[]];
    if (!PLACEHOLDER.test(segment)) {
      const next = path.join(dir, segment);
      return existsSync(next) && (more.length === 0 || statSync(next).isDirectory()) && walk(next, more);
    }
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    const pattern = new RegExp(
      `^${segment
        .split(/(<[^>]*>|\{[^}]*\}|\*|…)/)
        .map((part, i) => (i % 2 === 1 ? ".+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("")}$`,
    );
    return readdirSync(dir)
      .filter((name) => pattern.test(name))
      .some((name) => walk(path.join(dir, name), more));
  };
  return walk(ROOT, segments);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function headings(text: string): Set<string> {
  return new Set(
    splitDoc(text)
      .prose.map((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1])
      .filter((h): h is string => h !== undefined)
      .map(anchor),
  );
}

/** What is wrong with a link, or null: its file must exist, and its anchor be one of that file's headings. */
function brokenLink(doc: Doc, target: string): string | null {
  const [file = "", hash] = target.split("#");
  const resolved = file === "" ? doc.file : path.posix.normalize(path.posix.join(path.posix.dirname(doc.file), file));
  if (resolved.startsWith("..")) return null; // outside the repository (../shared/…): not ours to check
  const full = path.join(ROOT, resolved);
  if (!existsSync(full)) return `${resolved} does not exist`;
  if (hash !== undefined && resolved.endsWith(".md") && !headings(readFileSync(full, "utf8")).has(hash))
    return `${resolved} has no heading #${hash}`;
  return null;
}

// ── Addresses ────────────────────────────────────────────────────────────────────────────────────────────────

interface Mounted {
  method: string;
  path: string;
}

/** One segment of a mounted path as a test of a doc's segment. */
type Segment = { kind: "literal"; text: string } | { kind: "param"; regex: RegExp | null } | { kind: "rest" };

function mountedSegments(route: string): Segment[] {
  return route
    .split("/")
    .slice(1)
    .map((part): Segment => {
      if (part === "*") return { kind: "rest" };
      const param = /^:[A-Za-z]+(?:\{(.*)\})?$/.exec(part);
      if (param) return { kind: "param", regex: param[1] ? new RegExp(`^(?:${param[1]})$`) : null };
      return { kind: "literal", text: part };
    });
}

/** Whether the doc's address names this mounted path: placeholders only where the route takes a parameter. */
function matches(docPath: string, route: string): boolean {
  const doc = docPath === "/" ? [""] : docPath.replace(/\/$/, "").split("/").slice(1);
  const mounted = route === "/" ? [{ kind: "literal", text: "" } as Segment] : mountedSegments(route);
  let i = 0;
  for (const segment of mounted) {
    const part = doc[i];
    if (segment.kind === "rest") return i < doc.length;
    if (part === undefined) return false;
    if (part === "…" || part === "*") return true; // the doc names everything under here
    const placeholder = isPlaceholder(part);
    if (segment.kind === "literal" && (placeholder || part !== segment.text)) return false;
    if (segment.kind === "param" && !placeholder && segment.regex !== null && !segment.regex.test(part)) return false;
    i += 1;
  }
  return i === doc.length || (doc[i] === "…" && i === doc.length - 1);
}

/** The SPA's pages: every `path="…"` of the route table (catch-alls left out), and the index. */
function spaPages(): string[] {
  const table = readFileSync(path.join(ROOT, "src/web/app/routes.tsx"), "utf8");
  const pages = [...table.matchAll(/path="([^"]+)"/g)].map((m) => `/${m[1]!}`).filter((p) => !p.includes("*"));
  return ["/", ...pages];
}

/** The service workers' scripts, as src/web/sw/names.ts serves them (`script: "/admin/sw.js"`). */
function serviceWorkerScripts(): string[] {
  const names = readFileSync(path.join(ROOT, "src/web/sw/names.ts"), "utf8");
  return [...names.matchAll(/script: "([^"]+)"/g)].map((m) => m[1]!);
}

function publicFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, "public", dir), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`);
      else files.push(`${dir}/${entry.name}`);
    }
  };
  walk("");
  return files;
}

/** What is wrong with an address, or null. */
function brokenAddress(address: Address, routes: Mounted[]): string | null {
  const method = address.method === "HEAD" ? "GET" : address.method;
  const worker = routes.filter((r) => matches(address.path, r.path));
  if (worker.some((r) => method === null || r.method === method)) return null;
  if (method === null || method === "GET") {
    if (spaPages().some((page) => matches(address.path, page))) return null;
    if (serviceWorkerScripts().includes(address.path)) return null;
    if (address.path.startsWith("/assets/") || publicFiles().includes(address.path)) return null;
  }
  if (worker.length > 0) return `mounted only for ${[...new Set(worker.map((r) => r.method))].join(", ")}`;
  return "no route, page or file";
}

let routes: Mounted[] = [];
// Loading the whole Worker app takes seconds on a busy 2-core machine (the suite runs beside every other Node test):
// a slow import is not a verdict.
beforeAll(async () => {
  // Imported by a computed name, so the Node project's typecheck does not take in the Worker's sources.
  const appModule = "../../src/worker/app";
  const { createApp } = (await import(appModule)) as {
    createApp: () => { routes: { method: string; path: string }[] };
  };
  routes = createApp()
    .routes.filter((r) => r.method !== "ALL")
    .map(({ method, path }) => ({ method, path }));
}, 60_000);

function report(found: (Found & { why: string })[]): string[] {
  return found.map((f) => `${f.file}:${f.line}: \`${f.text}\`: ${f.why}`);
}

function brokenPaths(docs: Doc[]) {
  return docs.flatMap((doc) =>
    repoPaths(doc)
      .filter((p) => !repoPathExists(p.text))
      .map((p) => ({ ...p, why: "no such file or folder" })),
  );
}

function brokenLinks(docs: Doc[]) {
  return docs.flatMap((doc) =>
    links(doc).flatMap((l) => {
      const why = brokenLink(doc, l.text);
      return why === null ? [] : [{ ...l, why }];
    }),
  );
}

function brokenAddresses(docs: Doc[]) {
  return docs.flatMap((doc) =>
    addresses(doc).flatMap((a) => {
      const why = brokenAddress(a, routes);
      return why === null ? [] : [{ ...a, why }];
    }),
  );
}

describe("README.md, docs/ and bench/README.md", () => {
  const docs = readDocs();

  it("are read: the README, bench/README.md and every file under docs/, with many paths and addresses in them", () => {
    expect(docs.map((d) => d.file)).toEqual(
      expect.arrayContaining(["README.md", "bench/README.md", "docs/organiser.md"]),
    );
    expect(docs.flatMap(repoPaths).length).toBeGreaterThan(100);
    expect(docs.flatMap(addresses).length).toBeGreaterThan(100);
    expect(routes.length).toBeGreaterThan(100);
  });

  it("name only repository paths that exist", () => {
    expect(report(brokenPaths(docs))).toEqual([]);
  });

  it("link only to files (and headings) that exist", () => {
    expect(report(brokenLinks(docs))).toEqual([]);
  });

  it("name only addresses the Worker mounts or the SPA serves", () => {
    expect(report(brokenAddresses(docs))).toEqual([]);
  });
});

describe("the README's test command", () => {
  it("is the one CI runs: .ci/run ends with the command of the quick start's test line", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const quickStart = readme.slice(readme.indexOf("## Quick start"));
    const testLine = [...splitDoc(quickStart).shell.values()].find((line) => /#.*every test/.test(line));
    expect(testLine, "the quick start names the command that runs every test").toBeDefined();
    const command = testLine!.split("#")[0]!.trim();
    const ci = readFileSync(path.join(ROOT, ".ci/run"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    expect(command).toBe("npm test");
    expect(ci.at(-1)).toBe(command);
  });
});

describe("the checker", () => {
  const doc = (text: string): Doc => ({ file: "docs/example.md", text });

  it("catches a renamed file, a missing folder and a link to either, and passes what exists", () => {
    const text = [
      "The rules: `src/durable/race/rules/finish.ts` and `src/durable/race/rules/finsh.ts`.",
      "A resource's `src/worker/<resource>/routes.ts`; none has `src/worker/<resource>/nothing.ts`.",
      "```sh",
      "node scripts/import-results.mjs x.csv && node scripts/import-result.mjs x.csv",
      "```",
      "See [the guide](organiser.md), [the gone guide](organizer.md), [deploy](organiser.md#11-publicera)",
      "and [no heading](organiser.md#no-such-heading). Output: `bench/results/<name>.json`.",
    ].join("\n");
    expect(report(brokenPaths([doc(text)]))).toEqual([
      "docs/example.md:1: `src/durable/race/rules/finsh.ts`: no such file or folder",
      "docs/example.md:2: `src/worker/<resource>/nothing.ts`: no such file or folder",
      "docs/example.md:4: `scripts/import-result.mjs`: no such file or folder",
    ]);
    expect(report(brokenLinks([doc(text)]))).toEqual([
      "docs/example.md:6: `organizer.md`: docs/organizer.md does not exist",
      "docs/example.md:7: `organiser.md#no-such-heading`: docs/organiser.md has no heading #no-such-heading",
    ]);
  });

  it("catches an address that is not mounted, or not for its method, and passes placeholders for parameters", () => {
    const text = [
      "`GET /admin/api/races/finish/{race}/{sort}?tap&at`, `POST /admin/api/races/finish/{race}/{sort}`,",
      "`GET /admin/api/races/finnish/{race}/{sort}`, `/resultat/{year}`, `/resultat/1999`, `/api/races/get/{part}`,",
      "`/ws/spectate/{raceId}[?since=N]`, `/api/checkin-qr/{code}.png`, `/admin/race/{id}`, `/admin/kassa`,",
      "`/admin/kasa`, `/admin/sw.js`, `/og-bild.png`, `/admin/api/races/…`, `/api/races/get`, `HEAD /api/config`,",
      "`GET /admin/api/races/finish/:raceId/:sort`, `GET /admin/api/races/:raceId`.",
    ].join("\n");
    expect(report(brokenAddresses([doc(text)]))).toEqual([
      "docs/example.md:1: `POST /admin/api/races/finish/{race}/{sort}`: mounted only for GET",
      "docs/example.md:2: `GET /admin/api/races/finnish/{race}/{sort}`: no route, page or file",
      "docs/example.md:4: `/admin/kasa`: no route, page or file",
      "docs/example.md:4: `/api/races/get`: no route, page or file",
      "docs/example.md:5: `GET /admin/api/races/:raceId`: no route, page or file",
    ]);
  });
});
