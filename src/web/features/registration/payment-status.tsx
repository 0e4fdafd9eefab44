/**
 * What the family has paid and the state of its latest payment (spec §4: `swishtory[payid]`; issue 24: several
 * payments). Every PAID payment is listed with its amount, when, the campaign code used or Swish's reference, and
 * any refund ('Återbetalt 200 kr den …'); with every runner paid it is the spec's 'Klart och betalt!'. A latest
 * payment still waiting says so and can be withdrawn ('Avbryt betalningen'); a failed one shows 'Misslyckad
 * betalning, try again' and why, in Swedish (never Swish's English error text), and that the campaign code it
 * carried is kept for the retry (the first payment's or a late sibling's alike).
 */
import { payidLabel } from "../../../shared/campaign";
import type { FamilyPayment } from "../../../shared/registration-view";
import { formatSwedishDate } from "../../../shared/stockholm";
import { failureText } from "../../../shared/swish-errors";
import { Button } from "../../components/ui/button";
import type { Registration } from "./api/types";
import { useCancelPayment } from "./api/cancel-payment";
import { formatKr, formatMoment } from "../../lib/format";

/** 'SOMMAR' for a campaign order: the code on the row, or the payid's label of a 0 kr order. */
function campaignCodeOf(p: FamilyPayment): string | null {
  return p.kampanj ?? payidLabel(p.id, p.amount);
}

function dateOf(iso: string | null): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? formatSwedishDate(ms) : "";
}

function PaidPayment({ payment: p, names }: { payment: FamilyPayment; names: string[] }) {
  const code = campaignCodeOf(p);
  const refunds = p.refunds.filter((r) => r.status !== "ERROR");
  return (
    <li className="paid-payment">
      <dl className="payment-details">
        {names.length > 0 && (
          <div>
            <dt>För</dt>
            <dd>{names.join(", ")}</dd>
          </div>
        )}
        <div>
          <dt>Belopp</dt>
          <dd>{formatKr(p.amount)}</dd>
        </div>
        {(p.datePaid || p.dateCreated) && (
          <div>
            <dt>Betalt</dt>
            <dd>{formatMoment(p.datePaid ?? p.dateCreated)}</dd>
          </div>
        )}
        {code ? (
          <div>
            <dt>Kampanjkod</dt>
            <dd>{code}</dd>
          </div>
        ) : (
          p.paymentReference && (
            <div>
              <dt>Referens</dt>
              <dd>{p.paymentReference}</dd>
            </div>
          )
        )}
      </dl>
      {refunds.map((r, i) => (
        <p key={i} className="payment-refund">
          {r.status === "PAID"
            ? `Återbetalt ${formatKr(r.amount)}${r.datePaid ? ` den ${dateOf(r.datePaid)}` : ""}`
            : `Återbetalning på ${formatKr(r.amount)} är på väg`}
        </p>
      ))}
    </li>
  );
}

export function PaymentStatus({ registration }: { registration: Registration }) {
  const cancel = useCancelPayment();
  const payments = Object.values(registration.swishtory);
  const paid = payments
    .filter((p) => p.status === "PAID")
    .sort((a, b) => (a.datePaid ?? a.dateCreated).localeCompare(b.datePaid ?? b.dateCreated));
  const runners = Object.values(registration.deltagare).filter((r) => !r.deregistered);
  const unpaid = runners.filter((r) => !r.paidBy).length;
  const latest = registration.payid ? registration.swishtory[registration.payid] : undefined;

  return (
    <>
      {paid.length > 0 && (
        <section
          className={`alert ${unpaid === 0 ? "alert-success" : "alert-info"} payment-status`}
          aria-labelledby="payment-status-title"
        >
          <h3 id="payment-status-title">{unpaid === 0 ? "Klart och betalt!" : "Betalt"}</h3>
          <ul className="paid-payments">
            {paid.map((p) => (
              <PaidPayment
                key={p.id}
                payment={p}
                names={Object.values(registration.deltagare)
                  .filter((r) => r.paidBy === p.id)
                  .map((r) => r.firstname)}
              />
            ))}
          </ul>
          {unpaid === 0 ? (
            <p>Välkommen till loppet! Nummerlapparna hämtar du på plats på tävlingsdagen.</p>
          ) : (
            <p>
              {unpaid === 1 ? "En löpare" : `${unpaid} löpare`} som du har lagt till är inte betald
              {unpaid === 1 ? "" : "a"} än. Betala nedan.
            </p>
          )}
        </section>
      )}
      {latest?.status === "CREATED" && (
        <div className="alert alert-info payment-status" role="status">
          <p>Din senaste betalning är inte klar. Har du inte betalat än kan du betala igen nedan.</p>
          <p>Vill du lägga till fler löpare först? Avbryt då betalningen.</p>
          <Button size="small" loading={cancel.isPending} onClick={() => cancel.mutate()}>
            Avbryt betalningen
          </Button>
          {cancel.isError && <p className="field-error">{cancel.error.message}</p>}
        </div>
      )}
      {latest && latest.status !== "PAID" && latest.status !== "CREATED" && (
        <div className="alert alert-warning payment-status" role="alert">
          <p>
            <strong>Misslyckad betalning, try again</strong>
          </p>
          <p>
            {failureText(latest)} Tryck på Till betalning för att försöka igen
            {latest.kampanj ? ` – kampanjkoden ${latest.kampanj} finns kvar nedan` : ""}.
          </p>
        </div>
      )}
    </>
  );
}
