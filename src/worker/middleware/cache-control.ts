import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { setAnswerHeaders } from "../lib/answer-headers";

/** What an answer is given when its route says nothing about caching. */
export const PRIVATE_NO_STORE = "private, no-store";

/**
 * Workers Cache (the `cache` setting of the deployed environments in wrangler.toml) keeps any answer of the Worker
 * that does not say otherwise, even one without Cache-Control (a 200 for two hours, by RFC 9111's heuristics),
 * and its key holds no cookie. Most answers are one visitor's (`/api/config`, `/get`, an admin's list), so an
 * answer whose route set no Cache-Control is marked `private, no-store`: neither the edge nor a browser keeps it.
 * A route whose answer is the same for everyone says so itself (the public race view, the results files, the
 * pages). A socket upgrade is left as it is (its headers cannot change; the cache never sees one).
 */
export const cacheControlMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.status === 101 || c.res.headers.has("cache-control")) return;
  setAnswerHeaders(c, [["cache-control", PRIVATE_NO_STORE]]);
});
