/**
 * A public page's head for sharing: description and Open Graph tags, written once for both places that make a
 * page's first HTML: the build's pre-render (scripts/prerender.mjs, through src/web/entry-prerender.tsx) and the
 * Worker for pages it answers itself (an older year's results, src/worker/site/pages-routes.ts). `og:url` and
 * `og:image` are the Worker's to add (it knows the public origin at request time).
 */

export interface PageMeta {
  title: string;
  description: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The Open Graph tags (and the matching Twitter card) of a page, as HTML for the <head>. */
export function socialMetaTags(meta: PageMeta, siteName: string): string {
  const tags: [string, string, string][] = [
    ["property", "og:type", "website"],
    ["property", "og:locale", "sv_SE"],
    ["property", "og:site_name", siteName],
    ["property", "og:title", meta.title],
    ["property", "og:description", meta.description],
    ["name", "twitter:card", "summary_large_image"],
  ];
  return tags.map(([attr, key, content]) => `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`).join("");
}

/** The shared picture (public/og-bild.png, made by scripts/og-image.mjs), 1200×630 as Open Graph recommends. */
export const OG_IMAGE = { path: "/og-bild.png", width: 1200, height: 630, alt: "Byloppet: 0,8, 1,6, 2,8 och 5,6 km" };

/**
 * The tags that need the public origin, which only the Worker knows: og:url for the page at `path`, and the
 * shared picture (og:image must be an absolute address).
 */
export function ogUrlTag(origin: string, path: string): string {
  const tags: [string, string][] = [
    ["og:url", new URL(path, origin).href],
    ["og:image", new URL(OG_IMAGE.path, origin).href],
    ["og:image:width", String(OG_IMAGE.width)],
    ["og:image:height", String(OG_IMAGE.height)],
    ["og:image:alt", OG_IMAGE.alt],
  ];
  return tags.map(([key, content]) => `<meta property="${key}" content="${escapeHtml(content)}" />`).join("");
}
