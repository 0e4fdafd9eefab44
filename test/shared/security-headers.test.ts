/**
 * The security headers' one source (src/shared/security-headers.ts), as pure functions: the policy for a site
 * over https and for a local one, the map tiles' host, the sockets' address, the one inline script's hash, and the
 * admin area's documents (the camera and `blob:` images, nothing else) in the policy and in the `_headers` rules.
 * On the Worker's answers: test/worker/middleware/security-headers.test.ts; from `npm start` and in Chromium:
 * test/e2e/security-headers.test.ts.
 */
import { createHash } from "node:crypto";
import { isAdminDocument } from "../../src/shared/admin-document";
import { describe, expect, it } from "vitest";
import {
  ADMIN_DOCUMENT_HEADERS,
  contentSecurityPolicy,
  headersFileRules,
  mapTileSource,
  PAGE_LOADER_SCRIPT,
  PAGE_LOADER_SCRIPT_HASH,
  securityHeaders,
  socketSource,
} from "../../src/shared/security-headers";

/** The policy's directives by name. */
function directives(policy: string): Record<string, string> {
  return Object.fromEntries(
    policy.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

describe("security headers", () => {
  it("allow the pre-rendered pages' loader by its hash, and no other inline script", () => {
    const hash = createHash("sha256").update(PAGE_LOADER_SCRIPT).digest("base64");
    expect(PAGE_LOADER_SCRIPT_HASH).toBe(`'sha256-${hash}'`);
    const script = directives(contentSecurityPolicy({ publicOrigin: "https://byloppet.se" }))["script-src"];
    expect(script).toBe(`'self' ${PAGE_LOADER_SCRIPT_HASH} https://accounts.google.com/gsi/client`);
  });

  it("for a site over https: wss:// to its own host, tiles and Google by name, never framed, HSTS", () => {
    const headers = securityHeaders({
      publicOrigin: "https://byloppet.se",
      mapTileUrl: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
    });
    const csp = directives(headers["content-security-policy"]!);
    expect(csp).toMatchObject({
      "default-src": "'self'",
      "connect-src": "'self' wss://byloppet.se https://accounts.google.com/gsi/",
      "img-src": "'self' data: https://tile.openstreetmap.org",
      "frame-src": "https://accounts.google.com/gsi/",
      "worker-src": "'self'",
      "object-src": "'none'",
      "frame-ancestors": "'none'",
      "upgrade-insecure-requests": "",
    });
    expect(headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "strict-transport-security": "max-age=31536000",
    });
    const permissions = headers["permissions-policy"]!.split(", ");
    expect(permissions).toContain("camera=()");
    for (const denied of ["microphone", "geolocation", "payment", "usb"]) expect(permissions).toContain(`${denied}=()`);
    expect(permissions.filter((p) => !p.endsWith("=()"))).toEqual([]);
  });

  it("the admin area's documents may use the camera and show blob: images; nothing else differs", () => {
    const settings = {
      publicOrigin: "https://byloppet.se",
      mapTileUrl: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
    };
    const pub = securityHeaders(settings);
    const admin = securityHeaders({ ...settings, admin: true });
    const pubCsp = directives(pub["content-security-policy"]!);
    const adminCsp = directives(admin["content-security-policy"]!);
    expect(adminCsp["img-src"]).toBe("'self' data: blob: https://tile.openstreetmap.org");
    expect({ ...adminCsp, "img-src": pubCsp["img-src"] }).toEqual(pubCsp);
    const adminPermissions = admin["permissions-policy"]!.split(", ");
    expect(adminPermissions.filter((p) => !p.endsWith("=()"))).toEqual(["camera=(self)"]);
    expect(adminPermissions.map((p) => p.replace("camera=(self)", "camera=()"))).toEqual(
      pub["permissions-policy"]!.split(", "),
    );
    for (const name of Object.keys(pub)) {
      if (!(ADMIN_DOCUMENT_HEADERS as readonly string[]).includes(name)) expect(admin[name], name).toBe(pub[name]);
    }
    // Which addresses are the admin area's documents.
    for (const path of ["/admin", "/admin/", "/admin/race/race-260912-56", "/admin/incheckning", "/admin/login"]) {
      expect(isAdminDocument(path), path).toBe(true);
    }
    for (const path of ["/", "/administration", "/adminx/", "/anmalan/2", "/tidtagning", "/api/config", "/x/admin/"]) {
      expect(isAdminDocument(path), path).toBe(false);
    }
  });

  it("the `_headers` rules: the public headers for every path, the admin area's two replaced under /admin", () => {
    const settings = { publicOrigin: "https://byloppet.se" };
    const rules = new Map<string, string[]>();
    let current: string[] = [];
    for (const line of headersFileRules(settings).split("\n")) {
      if (line === "") continue;
      if (!line.startsWith("  ")) rules.set(line, (current = []));
      else current.push(line.trim());
    }
    expect([...rules.keys()]).toEqual(["/*", "/admin", "/admin/*"]);
    const pub = securityHeaders(settings);
    const admin = securityHeaders({ ...settings, admin: true });
    expect(rules.get("/*")).toEqual(Object.entries(pub).map(([name, value]) => `${name}: ${value}`));
    for (const path of ["/admin", "/admin/*"]) {
      expect(rules.get(path)).toEqual([
        "! content-security-policy",
        "! permissions-policy",
        `content-security-policy: ${admin["content-security-policy"]}`,
        `permissions-policy: ${admin["permissions-policy"]}`,
      ]);
    }
  });

  it("for a local site: ws:// on any port of localhost (one build, many ports), no HSTS, no upgrade", () => {
    const headers = securityHeaders({ publicOrigin: "http://localhost:8787" });
    const csp = directives(headers["content-security-policy"]!);
    expect(csp["connect-src"]).toBe("'self' ws://localhost:* https://accounts.google.com/gsi/");
    expect(csp["img-src"]).toBe("'self' data:");
    expect(csp).not.toHaveProperty("upgrade-insecure-requests");
    expect(headers).not.toHaveProperty("strict-transport-security");
  });

  it("allow inline scripts only for Vite's development server (its React refresh preamble)", () => {
    const vite = directives(contentSecurityPolicy({ publicOrigin: "http://localhost:5173", viteDevServer: true }));
    expect(vite["script-src"]).toBe("'self' 'unsafe-inline' https://accounts.google.com/gsi/client");
  });

  it("name the map tiles' host from the URL template; a template they cannot name adds nothing", () => {
    expect(mapTileSource("https://tile.openstreetmap.org/{z}/{x}/{y}.png")).toBe("https://tile.openstreetmap.org");
    expect(mapTileSource("https://{s}.tile.example.org/{z}/{x}/{y}.png")).toBe("https://*.tile.example.org");
    expect(mapTileSource("https://tiles.example.org:8443/v1/{z}/{x}/{y}.png?key=k")).toBe(
      "https://tiles.example.org:8443",
    );
    for (const bad of ["", undefined, "http://tile.example.org/{z}/{x}/{y}.png", "https://{z}.example/{x}", "tiles"]) {
      expect(mapTileSource(bad), String(bad)).toBeNull();
    }
  });

  it("name the sockets' address beside the page's: wss:// for https, the port kept unless on localhost", () => {
    expect(socketSource("https://byloppet.se")).toBe("wss://byloppet.se");
    expect(socketSource("https://staging.byloppet.se:8443")).toBe("wss://staging.byloppet.se:8443");
    expect(socketSource("http://localhost:8787")).toBe("ws://localhost:*");
    expect(socketSource("http://127.0.0.1:9000")).toBe("ws://127.0.0.1:*");
  });
});
