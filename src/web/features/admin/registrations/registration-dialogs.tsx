/**
 * The two dialogs of a registration row: the details (info icon; spec: "a dialog with the full details and a
 * 'Close Dialog' button") and the payment (the badge; spec: "A payment dialog shows errorCode and errorMessage of
 * failed payments"), which lists every payment of the registration with the runners it paid for and its refunds,
 * and refunds a paid Swish payment (keeping its runners, or deregistering them). One dialog for the whole page,
 * opened for one registration at a time, so a season of rows holds no dialog of its own.
 */
import {
  isRefundablePayment,
  paymentBadgeText,
  runnersByAge,
  type OverviewPayment,
  type OverviewRegistration,
  type OverviewRunner,
} from "../../../../shared/registrations-overview";
import { payidLabel } from "../../../../shared/campaign";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogContent } from "../../../components/ui/dialog";
import { useCheckRefund } from "./api/check-refund";
import { fullName, km, kronor, moment, PAYMENT_STATUS_WORDS, REFUND_STATUS_WORDS } from "./overview-words";
import { RefundForm } from "./refund-form";

export interface DialogTarget {
  kind: "info" | "payment";
  registrationId: string;
}

export function RegistrationDialog({
  target,
  registration,
  onClose,
}: {
  target: DialogTarget | null;
  registration: OverviewRegistration | undefined;
  onClose: () => void;
}) {
  const open = target !== null && registration !== undefined;
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open &&
        (target.kind === "info" ? (
          <InfoDialog registration={registration} onClose={onClose} />
        ) : (
          <PaymentDialog registration={registration} />
        ))}
    </Dialog>
  );
}

function InfoDialog({ registration: r, onClose }: { registration: OverviewRegistration; onClose: () => void }) {
  const runners = runnersByAge(r);
  return (
    <DialogContent title="Anmälan" description={r.email} className="registration-dialog">
      <dl className="reg-facts">
        <div>
          <dt>E-post</dt>
          <dd>{r.email}</dd>
        </div>
        <div>
          <dt>Anmäld</dt>
          <dd>{moment(r.createdAt)}</dd>
        </div>
        <div>
          <dt>Betalning</dt>
          <dd>{paymentBadgeText(r)}</dd>
        </div>
        <div>
          <dt>Betalnings-id</dt>
          <dd className="reg-code">{r.payid ?? "–"}</dd>
        </div>
      </dl>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Löpare i anmälan">
        <table className="table reg-runner-table">
          <caption className="visually-hidden">Löpare i anmälan</caption>
          <thead>
            <tr>
              <th scope="col">Namn</th>
              <th scope="col">Startnr</th>
              <th scope="col">Förening</th>
              <th scope="col">Distans</th>
              <th scope="col">Ålder</th>
              <th scope="col">Grupp</th>
              <th scope="col">Betalning</th>
            </tr>
          </thead>
          <tbody>
            {runners.map((x) => (
              <tr key={x.id}>
                <th scope="row">{fullName(x)}</th>
                <td>{x.bib ? x.bib : "–"}</td>
                <td>{x.company || "–"}</td>
                <td>{km(x)}</td>
                <td>{x.age}</td>
                <td>{x.group}</td>
                <td>{runnerPaymentText(x)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="dialog-actions">
        <Button onClick={onClose}>Close Dialog</Button>
      </div>
    </DialogContent>
  );
}

/** 'Betald 150 kr', 'Avregistrerad', 'Ej betald'. */
function runnerPaymentText(x: OverviewRunner): string {
  if (x.deregistered) return `Avregistrerad ${moment(x.deregistered)}`;
  if (x.paidBy) return x.price !== null ? `Betald ${kronor(x.price)}` : "Betald";
  return "Ej betald";
}

function PaymentDialog({ registration: r }: { registration: OverviewRegistration }) {
  // The selected payment first, then the others newest first.
  const payments = Object.values(r.swishtory).sort(
    (a, b) => Number(b.id === r.payid) - Number(a.id === r.payid) || b.dateCreated.localeCompare(a.dateCreated),
  );
  return (
    <DialogContent title="Betalning" description={r.email} className="registration-dialog">
      {payments.length === 0 ? (
        <p>{paymentBadgeText(r)}: ingen betalning är påbörjad.</p>
      ) : (
        payments.map((p) => (
          <PaymentCard
            key={p.id}
            payment={p}
            selected={p.id === r.payid}
            runners={runnersByAge(r).filter((x) => x.paidBy === p.id)}
            family={runnersByAge(r)}
          />
        ))
      )}
    </DialogContent>
  );
}

/** One payment: its status and details, the runners it paid for, its refunds, and the refund form. */
export function PaymentCard({
  payment: p,
  selected,
  runners,
  family = runners,
}: {
  payment: OverviewPayment;
  selected: boolean;
  /** The runners this payment booked (paid for). */
  runners: readonly OverviewRunner[];
  /** Every runner of the registration (who runs with whom), when the payment has one. */
  family?: readonly OverviewRunner[];
}) {
  const label = payidLabel(p.id, p.amount);
  const failed = p.errorCode !== null || p.errorMessage !== null;
  return (
    <section className={`payment-card payment-${p.status.toLowerCase()}`} aria-label={`Betalning ${p.id}`}>
      <h3 className="payment-heading">
        <span className={`pay-badge ${p.status === "PAID" ? "pay-badge-paid" : "pay-badge-unpaid"}`}>
          {PAYMENT_STATUS_WORDS[p.status]}
        </span>{" "}
        {label ?? kronor(p.amount)}
        {selected && <span className="muted payment-selected"> · senaste betalningen</span>}
      </h3>
      <dl className="reg-facts">
        <div>
          <dt>Status</dt>
          <dd>
            {PAYMENT_STATUS_WORDS[p.status]} ({p.status})
          </dd>
        </div>
        <div>
          <dt>Belopp</dt>
          <dd>
            {kronor(p.amount)} {p.currency !== "SEK" ? p.currency : ""}
          </dd>
        </div>
        <div>
          <dt>Betalnings-id</dt>
          <dd className="reg-code">{p.id}</dd>
        </div>
        <div>
          <dt>Skapad</dt>
          <dd>{moment(p.dateCreated)}</dd>
        </div>
        <div>
          <dt>Betald</dt>
          <dd>{moment(p.datePaid)}</dd>
        </div>
        {p.paymentReference && (
          <div>
            <dt>Swish-referens</dt>
            <dd className="reg-code">{p.paymentReference}</dd>
          </div>
        )}
        {p.payerAlias && (
          <div>
            <dt>Betalare</dt>
            <dd>{p.payerAlias}</dd>
          </div>
        )}
        {p.kampanj && (
          <div>
            <dt>Kampanjkod</dt>
            <dd>{p.kampanj}</dd>
          </div>
        )}
        {failed && (
          <>
            <div className="payment-error">
              <dt>Felkod</dt>
              <dd>{p.errorCode ?? "–"}</dd>
            </div>
            <div className="payment-error">
              <dt>Felmeddelande</dt>
              <dd>{p.errorMessage ?? "–"}</dd>
            </div>
          </>
        )}
      </dl>
      {runners.length > 0 && (
        <>
          <h4 className="refund-title">Betalade för</h4>
          <ul className="payment-runners">
            {runners.map((x) => (
              <li key={x.id}>
                {fullName(x)}, {km(x)}
                {x.companion ? ", springer med barn" : ""}
                {x.price !== null ? `, ${kronor(x.price)}` : ""}
                {x.deregistered ? " (avregistrerad)" : ""}
              </li>
            ))}
          </ul>
        </>
      )}
      {p.refunds.length > 0 && <RefundList payment={p} />}
      {isRefundablePayment(p) && (
        <RefundForm key={p.id} payment={p} runners={runners.filter((x) => !x.deregistered)} family={family} />
      )}
    </section>
  );
}

function RefundList({ payment: p }: { payment: OverviewPayment }) {
  const check = useCheckRefund();
  return (
    <div className="refund-list">
      <h4 className="refund-title">Återbetalningar{p.refunded > 0 ? ` (${kronor(p.refunded)} återbetalt)` : ""}</h4>
      <ul>
        {p.refunds.map((x) => (
          <li key={x.id} className={`refund-item refund-${x.status.toLowerCase()}`}>
            <span className="refund-amount-text">{kronor(x.amount)}</span>{" "}
            <span className="refund-status">{REFUND_STATUS_WORDS[x.status]}</span>{" "}
            <span className="muted">{moment(x.datePaid ?? x.date)}</span>
            {x.status === "ERROR" && (x.errorCode || x.errorMessage) && (
              <span className="refund-error"> {[x.errorCode, x.errorMessage].filter(Boolean).join(": ")}</span>
            )}
            {x.status === "CREATED" && (
              <Button
                size="small"
                variant="text"
                loading={check.isPending && check.variables === x.id}
                onClick={() => check.mutate(x.id)}
              >
                Kontrollera hos Swish
              </Button>
            )}
          </li>
        ))}
      </ul>
      {check.isError && (
        <p className="alert alert-error" role="alert">
          {check.error.message}
        </p>
      )}
    </div>
  );
}
