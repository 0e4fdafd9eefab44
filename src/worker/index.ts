import { clockFromSettings } from "../shared/clock";
import { createApp } from "./app";
import { database } from "./db/client";
import { applyDevSeason } from "../shared/dev-season";
import { purgeExpired } from "./db/retention";
import { purgeExpiredPhotos } from "./race-day/finish-photos";
import { stockholmDate } from "../shared/stockholm";
import { handleMailBatch } from "./mass-email/mailings";
import { reconcilePayments } from "./payments/payments";
import { reconcileRefunds } from "./payments/refunds";

export { PaymentDO } from "../durable/payment";
export { RaceDO } from "../durable/race/race-do";
export { RaceHubDO } from "../durable/race-hub";
export { SpectatorsDO } from "../durable/spectators";
export { ObjectServices } from "./objects/object-services";

const app = createApp();

export default {
  fetch: app.fetch,
  // wrangler.toml [triggers]: Swish callbacks may never arrive, so sweep payments and refunds still CREATED; and
  // drop what is past its retention (sessions, login codes, e-mail bodies, finish photos). None waits for, or fails,
  // another.
  scheduled: (_controller, env, ctx) => {
    applyDevSeason(env);
    const clock = clockFromSettings(env);
    ctx.waitUntil(reconcilePayments(env, clock));
    ctx.waitUntil(reconcileRefunds(env, clock).catch((err: unknown) => console.error("refund sweep failed", err)));
    ctx.waitUntil(
      purgeExpired(database(env.DB), clock.now()).catch((err: unknown) => console.error("retention purge failed", err)),
    );
    // Målfoto: a race's finish photos go 30 days after race day (race-day/finish-photos.ts).
    ctx.waitUntil(
      purgeExpiredPhotos(env, stockholmDate(clock.now())).catch((err: unknown) =>
        console.error("finish photo purge failed", err),
      ),
    );
  },
  // wrangler.toml [[queues.consumers]]: mass e-mail, one message per recipient (src/worker/mass-email/mailings.ts), and its
  // dead-letter queue, whose messages record a verdict for recipients the consumer never settled.
  queue: (batch, env) => {
    applyDevSeason(env);
    return handleMailBatch(batch, env);
  },
} satisfies ExportedHandler<Env>;
