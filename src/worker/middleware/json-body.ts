import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Bodies that are not ours to shape: the RFC 8058 one-click unsubscribe POST is a form, the Swish callbacks
 * (payments and refunds) are Swish's, and the development Swish phone page may post a plain form.
 */
const EXEMPT = [
  /^\/swish\/callback(\/refund)?$/,
  /^\/unsubscribe\//,
  /^\/dev\/swish\//,
  /^\/admin\/api\/races\/photo\//,
];

/**
 * Every request body the API reads is JSON. Refusing other content types (415) also shuts out the "simple"
 * cross-site requests a form or `text/plain` fetch can make without a preflight (ASVS 5.0 3.5.2).
 */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const req = c.req.raw;
  if (hasBody(req) && !EXEMPT.some((re) => re.test(c.req.path))) {
    const type = req.headers.get("content-type") ?? "";
    if (!JSON_TYPE.test(type)) throw new ApiError(415, "Förfrågan måste vara JSON.");
  }
  await next();
});

function hasBody(req: Request): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  const length = req.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return req.body !== null;
}
