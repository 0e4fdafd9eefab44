/**
 * Build step after `vite build` (`npm run build`): renders the public static pages into the built SPA template,
 * so a phone gets their content in the first HTML response and React then hydrates it.
 *
 * 1. Bundles src/web/entry-prerender.tsx for Node with Vite (React plugin only: no Cloudflare plugin, no Worker).
 * 2. Renders every page of PRERENDER_PAGES with react-dom/static inside a StaticRouter.
 * 3. Writes each into a copy of dist/client/index.html (same script and style tags), marking #root with
 *    data-prerendered="<path>" so main.tsx hydrates only on that path.
 *
 * '/' goes to dist/client/_landing.html, which the Worker serves for GET / (src/worker/site/pages-routes.ts);
 * the others to '<name>.html', which Workers static assets serve for '/<name>' (html_handling
 * auto-trailing-slash). dist/client/index.html stays the EMPTY shell: it is the SPA fallback for every deep
 * link (/anmalan/2, /admin/race, /galleri/2024), which must never show another page's HTML.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import react from "@vitejs/plugin-react";
import { build } from "vite";

process.env.NODE_ENV ??= "production";

const root = path.resolve(import.meta.dirname, "..");
const clientDir = path.join(root, "dist/client");
const serverDir = path.join(root, "dist/prerender");
const ROOT_DIV = '<div id="root"></div>';
/** Stylesheets up to this size are inlined: one less render-blocking round trip on a slow phone connection. */
const INLINE_CSS_MAX_BYTES = 40_000;

const unescapeHtml = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const escapeHtml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

async function bundleRenderer() {
  await build({
    configFile: false,
    root,
    mode: "production",
    logLevel: "warn",
    publicDir: false,
    plugins: [react()],
    build: {
      ssr: "src/web/entry-prerender.tsx",
      outDir: serverDir,
      emptyOutDir: true,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: "entry-prerender.mjs" } },
    },
  });
  return import(pathToFileURL(path.join(serverDir, "entry-prerender.mjs")).href);
}

async function inlineStylesheets(html) {
  const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g)];
  for (const [tag, href] of links) {
    const css = await readFile(path.join(clientDir, href), "utf8");
    if (Buffer.byteLength(css) <= INLINE_CSS_MAX_BYTES && !css.includes("</style")) {
      html = html.replace(tag, () => `<style>${css}</style>`);
    }
  }
  return html;
}

/**
 * A pre-rendered page is readable without JavaScript, so its entry script waits until the first frame is
 * painted: on a slow phone connection the HTML then paints without competing for bandwidth with ~100 kB of
 * JS, and Lighthouse's simulation no longer puts the bundle on the first paint's critical path (LCP went from
 * 1.6 s to 0.7 s in half the runs). The module preloads go too: the entry imports those chunks itself.
 * The loader's text is the same for every build (the entry's address is an attribute), so the Content Security
 * Policy allows exactly it by its hash (src/shared/security-headers.ts).
 */
function loadEntryAfterFirstPaint(html, loaderScript) {
  const entry = html.match(/<script type="module" crossorigin src="([^"]+)"><\/script>/);
  if (!entry) throw new Error("The built template has no module entry script.");
  const loader = `<script data-entry="${escapeHtml(entry[1])}">${loaderScript}</script>`;
  return html
    .replace(entry[0], "")
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, "")
    .replace("</body>", () => `${loader}</body>`);
}

async function main() {
  const templatePath = path.join(clientDir, "index.html");
  const template = await readFile(templatePath, "utf8");
  if (!template.includes(ROOT_DIV)) {
    throw new Error(`${templatePath} has no empty ${ROOT_DIV}: run \`vite build\` first (npm run build does both).`);
  }
  const { render, PRERENDER_PAGES, SITE_NAME, socialMetaTags, PAGE_LOADER_SCRIPT } = await bundleRenderer();
  const page = loadEntryAfterFirstPaint(await inlineStylesheets(template), PAGE_LOADER_SCRIPT);
  const siteDescription = template.match(/<meta\s+name="description"\s+content="([^"]*)"/)?.[1];
  if (!siteDescription) throw new Error("The built template has no meta description.");

  for (const { path: route, file, title, description } of PRERENDER_PAGES) {
    let body;
    try {
      body = await render(route);
    } catch (err) {
      throw new Error(`Pre-rendering ${route} failed (a component touched the browser during render?)`, {
        cause: err,
      });
    }
    if (!body.trim()) throw new Error(`Pre-rendering ${route} produced no HTML.`);
    // Sharing tags (og:url is added by the Worker, which knows the public origin: src/worker/site/pages-routes.ts).
    const head = socialMetaTags({ title, description: description ?? unescapeHtml(siteDescription) }, SITE_NAME);
    const html = page
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
      .replace(/<meta\s+name="description"\s+content="[^"]*"\s*\/?>/, (tag) =>
        description ? `<meta name="description" content="${escapeHtml(description)}" />` : tag,
      )
      .replace("</head>", () => `${head}</head>`)
      .replace(ROOT_DIV, () => `<div id="root" data-prerendered="${escapeHtml(route)}">${body}</div>`);
    // A file may sit in a folder of its own (galleri/2019.html).
    await mkdir(path.dirname(path.join(clientDir, file)), { recursive: true });
    await writeFile(path.join(clientDir, file), html);
    console.log(`prerender: ${route.padEnd(18)} → dist/client/${file} (${(html.length / 1024).toFixed(1)} kB)`);
  }

  // The SPA fallback must still be the empty shell.
  if (!(await readFile(templatePath, "utf8")).includes(ROOT_DIV)) throw new Error("index.html was modified.");
}

await main();
