/**
 * Which documents are the admin area's: `/admin` and everything under `/admin/`. Only those may use the camera
 * (the race screen's Målfoto, the bib desk's QR scanner) and show `blob:` images (security-headers.ts). Headers are
 * per document and the SPA moves between screens inside one, so the public site's links into the admin area load a
 * new document (src/web/lib/document-area.ts).
 */
export function isAdminDocument(path: string): boolean {
  return path === "/admin" || path.startsWith("/admin/");
}
