import type { AdminRole } from "../shared/admin-roles";
import type { Clock } from "../shared/clock";

/** What a visitor or admin session carries once verified (see session/session-middleware.ts). */
export interface SessionInfo {
  id: string;
  kind: "visitor" | "admin";
  email: string;
  /** When the session expires (server clock, ms). */
  expiresAt: number;
  /** An admin session's role, as D1 (or ADMIN_EMAILS) said when the session was read (middleware/session.ts). */
  role?: AdminRole;
}

/** Hono's context type for every route file: bindings plus what the middleware puts on the context. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    clock: Clock;
    devMode: boolean;
    /** The visitor session, if the request carries a valid one. */
    session: SessionInfo | null;
    /** The admin session, if the request carries a valid one whose e-mail is (still) an admin. */
    admin: SessionInfo | null;
  };
}
