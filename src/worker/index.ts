import { clockFromSettings } from "../shared/clock";
import { createApp } from "./app";
import { database } from "./db/client";
import { purgeExpired } from "./db/retention";
import { reconcilePayments } from "./payments";

export { PaymentDO } from "../durable/payment";
export { RaceDO } from "../durable/race";
export { RaceHubDO } from "../durable/race-hub";

const app = createApp();

export default {
  fetch: app.fetch,
  // wrangler.toml [triggers]: Swish callbacks may never arrive, so sweep payments still CREATED; and drop what
  // is past its retention (sessions, login codes, e-mail bodies). Neither waits for, or fails, the other.
  scheduled: (_controller, env, ctx) => {
    const clock = clockFromSettings(env);
    ctx.waitUntil(reconcilePayments(env, clock));
    ctx.waitUntil(
      purgeExpired(database(env.DB), clock.now()).catch((err: unknown) => console.error("retention purge failed", err)),
    );
  },
} satisfies ExportedHandler<Env>;
