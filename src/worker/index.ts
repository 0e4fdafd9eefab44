import { clockFromSettings } from "../shared/clock";
import { createApp } from "./app";
import { reconcilePayments } from "./payments";

export { PaymentDO } from "../durable/payment";
export { RaceDO } from "../durable/race";
export { RaceHubDO } from "../durable/race-hub";

const app = createApp();

export default {
  fetch: app.fetch,
  // Swish callbacks may never arrive: sweep payments still CREATED (wrangler.toml [triggers]).
  scheduled: (_controller, env, ctx) => ctx.waitUntil(reconcilePayments(env, clockFromSettings(env))),
} satisfies ExportedHandler<Env>;
