/**
 * A public page's head for sharing: description and Open Graph tags, written once for both places that make a
 * page's first HTML: the build's pre-render (scripts/prerender.mjs, through src/web/entry-prerender.tsx) and the
 * Worker for pages it answers itself (an older year's results, src/worker/routes/pages.ts). `og:url` is the
 * Worker's to add (it knows the public origin at request time).
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
    ["name", "twitter:card", "summary"],
  ];
  return tags.map(([attr, key, content]) => `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`).join("");
}

/** The og:url tag, for the page at `path` on `origin`. */
export function ogUrlTag(origin: string, path: string): string {
  return `<meta property="og:url" content="${escapeHtml(new URL(path, origin).href)}" />`;
}
