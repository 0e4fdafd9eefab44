/**
 * The Worker's HTTP app: one Hono sub-app per resource (src/worker/routes/*), mounted here, with one error
 * handler and the middleware every request passes. Data access lives in src/worker/db/*, never in Hono code.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { appContext } from "./middleware/context";
import { sameOrigin } from "./middleware/same-origin";

/** Largest JSON body any call needs (a family's runner map, a mass e-mail text). */
export const MAX_BODY_BYTES = 64 * 1024;

export function createApp() {
  const app = new Hono<AppEnv>();

  app.use(appContext);
  app.use(sameOrigin);
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError(413, "För stor förfrågan.");
      },
    }),
  );

  // Routes are mounted below, one line per resource file.

  app.notFound((c) => c.json({ error: "Hittades inte" }, 404));

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json(err.errors ? { error: err.message, errors: err.errors } : { error: err.message }, err.status);
    }
    if (err instanceof HTTPException) {
      return c.json({ error: err.message || "Ogiltig förfrågan" }, err.status);
    }
    console.error("unhandled", c.req.method, c.req.path, err);
    return c.json({ error: "Något gick fel på servern. Försök igen om en stund." }, 500);
  });

  return app;
}
