/**
 * The browser's own defences: the security headers every answer of the site carries. One function decides them
 * from the site's settings and whether the answer is one of the admin area's documents (`isAdminDocument`,
 * admin-document.ts: only those may use the camera and show `blob:` images), and two places send them: the
 * Worker's middleware on everything the Worker answers (src/worker/middleware/security-headers.ts), and the build,
 * which writes the same headers into the static assets' `_headers` file (vite.config.ts, `headersFileRules`), since
 * assets such as the admin area's start pages (admin/_shell.html, which the admin service worker keeps) are served
 * without running the Worker. Both read the same wrangler.toml variables (PUBLIC_ORIGIN, MAP_TILE_URL), so a page
 * gets the same policy whichever of the two served it.
 */

/**
 * The pre-rendered pages' one inline script (scripts/prerender.mjs): after the first paint it adds the module
 * entry, whose address it reads from its own `data-entry` attribute. The text never changes with a build, so the
 * policy allows it by its hash and no other inline script runs. Page data put into the HTML must travel as
 * `<script type="application/json">`, which is data, not script.
 */
export const PAGE_LOADER_SCRIPT =
  "(function(entry){requestAnimationFrame(function(){setTimeout(function(){" +
  'var s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=entry;document.head.appendChild(s)' +
  '})})})(document.currentScript.getAttribute("data-entry"))';

/** `'sha256-…'` of PAGE_LOADER_SCRIPT (test/shared/security-headers.test.ts recomputes it). */
export const PAGE_LOADER_SCRIPT_HASH = "'sha256-NEwfFl2AUxHwEPa6qqxfpP3AheqVScYhtQlM0l6wn48='";

/**
 * Google Identity Services, by name (the sign-in page only loads it; developers.google.com/identity/gsi/web/guides/
 * get-google-api-clientid, "Content Security Policy"): its script, its button's frame, its calls and its styles.
 */
export const GOOGLE_SIGN_IN = {
  script: "https://accounts.google.com/gsi/client",
  frame: "https://accounts.google.com/gsi/",
  connect: "https://accounts.google.com/gsi/",
  style: "https://accounts.google.com/gsi/style",
} as const;

/** One year. Without includeSubDomains: the club's other subdomains may not all be served over https. */
export const HSTS_MAX_AGE = 31_536_000;

/** Everything a page could ask the browser for, denied; the camera only on the admin area's documents. */
const DENIED_FEATURES = [
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "midi=()",
  "accelerometer=()",
  "gyroscope=()",
  "magnetometer=()",
  "display-capture=()",
  "screen-wake-lock=()",
  "idle-detection=()",
  "publickey-credentials-get=()",
  "xr-spatial-tracking=()",
  "browsing-topics=()",
];

/** The public site's documents: no camera either. */
export const PERMISSIONS_POLICY = ["camera=()", ...DENIED_FEATURES].join(", ");
/** The admin area's documents: the camera for our own origin (Målfoto, the bib desk), nothing else. */
export const ADMIN_PERMISSIONS_POLICY = ["camera=(self)", ...DENIED_FEATURES].join(", ");

export interface SecuritySettings {
  /** The site's address (wrangler.toml PUBLIC_ORIGIN): the live sockets' host, and https or not. */
  publicOrigin: string;
  /** The map tiles' URL template (wrangler.toml MAP_TILE_URL); empty for no tiles. */
  mapTileUrl?: string;
  /**
   * Vite's development server (`npm run dev`) serves the SPA shell with an inline module script of its own (the
   * React refresh preamble), so its pages allow inline scripts. Never set for a build.
   */
  viteDevServer?: boolean;
  /**
   * An admin area's document (`isAdminDocument`): the camera allowed, and `blob:` images (Målfoto's frames shown
   * from the phone's memory before they are sent). The public site's documents get neither.
   */
  admin?: boolean;
}

/**
 * The image source a tile template needs: its origin, with a `{s}` subdomain placeholder as `*`
 * ('https://{s}.tile.example.org/{z}/{x}/{y}.png' → 'https://*.tile.example.org'). Null when the template is
 * empty or not an https address of that form.
 */
export function mapTileSource(template: string | undefined): string | null {
  const authority = /^https:\/\/([^/]+)\//.exec((template ?? "").trim())?.[1]?.toLowerCase();
  if (!authority) return null;
  const source = authority.startsWith("{s}.") ? `*.${authority.slice("{s}.".length)}` : authority;
  return /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/.test(source) ? `https://${source}` : null;
}

/**
 * The live sockets' source: wss:// beside https://, ws:// beside http:// (wsUrlFor in src/worker/site/config-routes.ts). Safari does
 * not count a socket to the page's own host as 'self', so it is named. A site on localhost may run on any port
 * (`PORT=… npm start`, a test server on a free port) from one build, so there the port is left open.
 */
export function socketSource(publicOrigin: string): string {
  const url = new URL(publicOrigin);
  const scheme = url.protocol === "https:" ? "wss:" : "ws:";
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  return `${scheme}//${url.hostname}${local ? ":*" : url.port ? `:${url.port}` : ""}`;
}

export function contentSecurityPolicy(settings: SecuritySettings): string {
  const https = new URL(settings.publicOrigin).protocol === "https:";
  const tiles = mapTileSource(settings.mapTileUrl);
  const inlineScript = settings.viteDevServer ? "'unsafe-inline'" : PAGE_LOADER_SCRIPT_HASH;
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${inlineScript} ${GOOGLE_SIGN_IN.script}`,
    // React's style attributes in the pre-rendered HTML and the inlined stylesheets (scripts/prerender.mjs) are
    // inline styles; a style cannot run code.
    `style-src 'self' 'unsafe-inline' ${GOOGLE_SIGN_IN.style}`,
    // data: for Leaflet's stylesheet images; blob: (pictures made in the page) only in the admin area; the QR
    // images are our own (/qr-v2), as are the gallery photos (/galleri-bilder/…).
    `img-src 'self' data:${settings.admin ? " blob:" : ""}${tiles ? ` ${tiles}` : ""}`,
    "font-src 'self'",
    `connect-src 'self' ${socketSource(settings.publicOrigin)} ${GOOGLE_SIGN_IN.connect}`,
    `frame-src ${GOOGLE_SIGN_IN.frame}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // An admin race screen in a hidden frame could be clicked into 'Starta' or a reset.
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** Every security header of an answer, by lower-case name. HSTS only for a site served over https. */
export function securityHeaders(settings: SecuritySettings): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": contentSecurityPolicy(settings),
    "x-content-type-options": "nosniff",
    // The origin, never the path, to other sites: a map tile server asks for a referrer, and a path such as
    // /kvitto/{id} names a family's registration.
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": settings.admin ? ADMIN_PERMISSIONS_POLICY : PERMISSIONS_POLICY,
  };
  if (new URL(settings.publicOrigin).protocol === "https:") {
    headers["strict-transport-security"] = `max-age=${HSTS_MAX_AGE}`;
  }
  return headers;
}

/** The headers the admin area's documents get instead of the public site's (the rest are the same). */
export const ADMIN_DOCUMENT_HEADERS = ["content-security-policy", "permissions-policy"] as const;

/**
 * The security headers' rules for the static assets' `_headers` file (vite.config.ts appends them after
 * public/_headers): every path gets the public site's headers; `/admin` and `/admin/*` (the admin area's pages the
 * assets serve by themselves: admin/_shell.html, admin/_race-shell.html, which the admin service worker keeps) have
 * the two that differ taken off (`! name`, the file's syntax for dropping what an earlier rule set) and the admin
 * area's set instead: the paths `isAdminDocument` (admin-document.ts) names. This file imports nothing, so the Node
 * scripts read it as it is (scripts/lib/deploy-checks.mjs).
 */
export function headersFileRules(settings: Omit<SecuritySettings, "admin">): string {
  const pub = securityHeaders({ ...settings, admin: false });
  const admin = securityHeaders({ ...settings, admin: true });
  const lines = ["/*", ...Object.entries(pub).map(([name, value]) => `  ${name}: ${value}`)];
  for (const path of ["/admin", "/admin/*"]) {
    lines.push(path);
    for (const name of ADMIN_DOCUMENT_HEADERS) lines.push(`  ! ${name}`);
    for (const name of ADMIN_DOCUMENT_HEADERS) lines.push(`  ${name}: ${admin[name]}`);
  }
  return lines.join("\n") + "\n";
}
