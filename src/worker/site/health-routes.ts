/**
 * GET /api/health: the cheapest answer the Worker can give (no D1, no clock, no JSON). It is the baseline
 * the rps benchmark (bench/config-rps.mjs) sets /api/config against, so keep it doing nothing.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";

export const healthRoutes = new Hono<AppEnv>();

healthRoutes.get("/", (c) => c.text("ok"));
