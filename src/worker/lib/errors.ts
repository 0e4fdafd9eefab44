import type { Retime } from "../../shared/race-protocol";

/**
 * Typed errors thrown by routes and data functions; `app.onError` shapes them into the spec's bodies:
 * `{error}` for one message, `{error, errors}` with field errors (e.g. /book-v2's barn/vuxna entries), and
 * `{error, retimes}` for a race-day action that needs the organiser's confirmation of who gets a new time.
 * Messages are Swedish and meant for the person in front of the screen.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503,
    message: string,
    readonly errors?: Record<string, string>,
    readonly retimes?: Retime[],
    /** A 429's seconds to wait: the answer's `Retry-After` (app.ts). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message = "Hittades inte") => new ApiError(404, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const unauthorized = (message: string) => new ApiError(401, message);
export const conflict = (message: string) => new ApiError(409, message);
export const tooMany = (message = "För många försök. Vänta en stund och försök igen.") => new ApiError(429, message);
