/**
 * The state of the registration's selected payment (spec §4: `swishtory[payid]`): PAID shows 'Klart och betalt!'
 * with the details; a settled failure shows 'Misslyckad betalning, try again' and why, in Swedish (never Swish's
 * English error text); one still waiting says so.
 */
import { isCampaignPayid, payidLabel } from "../../../shared/campaign";
import type { PaymentRecord } from "../../../shared/payment-protocol";
import { failureText } from "../../../shared/swish-errors";
import { formatKr, formatMoment } from "./format";

/** The campaign code of a campaign payid ('kampanj_SOMMAR_x1y2' → 'SOMMAR'). */
function campaignCodeOf(payid: string): string | null {
  if (!isCampaignPayid(payid)) return null;
  return payid.split("_")[1] || null;
}

export function PaymentStatus({ payid, payment }: { payid: string; payment: PaymentRecord }) {
  if (payment.status === "PAID") {
    const code = campaignCodeOf(payid) ?? payidLabel(payid, payment.amount);
    return (
      <section className="alert alert-success payment-status" aria-labelledby="payment-status-title">
        <h3 id="payment-status-title">Klart och betalt!</h3>
        <dl className="payment-details">
          <div>
            <dt>Belopp</dt>
            <dd>{formatKr(payment.amount)}</dd>
          </div>
          {(payment.datePaid || payment.dateCreated) && (
            <div>
              <dt>Betalt</dt>
              <dd>{formatMoment(payment.datePaid ?? payment.dateCreated)}</dd>
            </div>
          )}
          {code ? (
            <div>
              <dt>Kampanjkod</dt>
              <dd>{code}</dd>
            </div>
          ) : (
            payment.paymentReference && (
              <div>
                <dt>Referens</dt>
                <dd>{payment.paymentReference}</dd>
              </div>
            )
          )}
        </dl>
        <p>Välkommen till loppet! Nummerlapparna hämtar du på plats på tävlingsdagen.</p>
      </section>
    );
  }
  if (payment.status === "CREATED") {
    return (
      <div className="alert alert-info payment-status" role="status">
        <p>Din senaste betalning är inte klar. Har du inte betalat än kan du betala igen nedan.</p>
      </div>
    );
  }
  return (
    <div className="alert alert-warning payment-status" role="alert">
      <p>
        <strong>Misslyckad betalning, try again</strong>
      </p>
      <p>
        {failureText(payment)} Tryck på Till betalning för att försöka igen
        {payment.kampanj ? ` – kampanjkoden ${payment.kampanj} finns kvar nedan` : ""}.
      </p>
    </div>
  );
}
