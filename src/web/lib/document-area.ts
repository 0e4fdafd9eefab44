/**
 * Whether this page was loaded as one of the admin area's documents (src/shared/admin-document.ts), whose headers
 * allow the camera and `blob:` images; the public site's documents allow neither. Read once, when the page's code
 * starts: moving between screens keeps the document, and with it the policy it was loaded with. A link from a
 * public document into the admin area therefore loads a new document (nav-links.tsx).
 */
import { isAdminDocument } from "../../shared/admin-document";

export const ADMIN_DOCUMENT = typeof location !== "undefined" && isAdminDocument(location.pathname);
