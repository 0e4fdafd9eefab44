/**
 * The type of the package import `#page-renderer` (package.json `imports`): the Worker sees only this, the
 * bundlers load src/web/entry-server.tsx, which is checked against the same type (src/shared/page-render.ts).
 */
import type { RenderDataPage } from "../src/shared/page-render";

export declare const renderDataPage: RenderDataPage;
