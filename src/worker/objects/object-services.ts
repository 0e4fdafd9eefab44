/**
 * What the Durable Objects ask of the Worker's services, each through one explicit call: the objects reach this
 * entrypoint through the runtime's loopback binding to the Worker's own exports (`ctx.exports.ObjectServices`), so
 * no object imports a Worker service, and none of these calls the asking object back.
 *
 * - `mailResults`: the race object's owed results mail (src/durable/race/results-mail.ts). The race object reads
 *   the race from its own storage and its alarm calls this, one run at a time per race; a throw leaves the mail
 *   owed and the alarm tries again.
 * - `settlePaymentPoll`: the payment object's poll of Swish (src/durable/payment.ts). The object answers its own
 *   waiting page from the result, so the settlement does not notify it; what a PAID payment leads to (runners into
 *   their races, the receipt) goes on after the answer, and the cron's repair finishes it if this call's context
 *   ends first (payments.ts `reconcilePayments`).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import { clockFromSettings } from "../../shared/clock";
import { applyDevSeason } from "../../shared/dev-season";
import type { RaceSnapshot } from "../../shared/race-protocol";
import { settlePayment, type SettleResult } from "../payments/payments";
import { mailCorrectedResults, mailOfficialResults } from "../registration/results-mails";

export class ObjectServices extends WorkerEntrypoint<Env> {
  /** The families' mail about a race whose results are official: first the official mail, then corrections. */
  async mailResults(race: RaceSnapshot, gone: string[], now: number): Promise<void> {
    applyDevSeason(this.env);
    await mailOfficialResults(this.env, race, now);
    await mailCorrectedResults(this.env, race, now, gone);
  }

  /** Asks Swish and settles the payment if it is done; the payment object answers its page from the result. */
  async settlePaymentPoll(payid: string): Promise<SettleResult> {
    applyDevSeason(this.env);
    return settlePayment(this.env, payid, "poll", {
      clock: clockFromSettings(this.env),
      notify: "caller",
      afterAnswer: (work) => this.ctx.waitUntil(work),
    });
  }
}
