import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";

/** Development affordances (DESIGN.md) do not exist outside development mode: they answer 404. */
export const devOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.devMode) throw notFound();
  await next();
});
