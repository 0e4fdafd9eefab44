import type { Context } from "hono";

/**
 * Sets headers on the answer a middleware wraps: in place when its headers can change (every answer Hono makes), on
 * a copy when they cannot (an answer passed on from fetch(), such as a static asset through the ASSETS binding, has
 * immutable headers and throws a TypeError on the first set, before anything changed). Copying every answer made a
 * new Response, its body re-wrapped as a stream, in each middleware on every request.
 */
export function setAnswerHeaders(c: Context, headers: ReadonlyArray<readonly [string, string]>): void {
  if (headers.length === 0) return;
  try {
    for (const [name, value] of headers) c.res.headers.set(name, value);
    return;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  const res = new Response(c.res.body, c.res);
  for (const [name, value] of headers) res.headers.set(name, value);
  c.res = undefined;
  c.res = res;
}
