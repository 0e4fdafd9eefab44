/**
 * Refund a paid Swish payment, in full or in part (POST /admin/api/refunds). The amount is checked here with the
 * server's rule (whole kronor, 1 … what is left), then confirmed in a second step. The request carries an
 * idempotency key made for this refund: a retry after a lost answer sends the same key and gets the first refund
 * back, never a second one. A new key is made once the server has answered (or the amount changes).
 */
import { useRef, useState, type FormEvent } from "react";
import type { OverviewPayment } from "../../../../shared/registrations-overview";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api";
import { useCreateRefund, type RefundAnswer } from "./api/create-refund";
import { kronor } from "./overview-words";
import { checkRefundAmount } from "./refund-amount";

function newKey(): string {
  return crypto.randomUUID();
}

function answerText(a: RefundAnswer): string {
  if (a.refund.status === "PAID") return `${kronor(a.refund.amount)} är återbetalt till betalaren.`;
  return `Återbetalningen på ${kronor(a.refund.amount)} är skickad till Swish och väntar på bekräftelse.`;
}

export function RefundForm({ payment }: { payment: OverviewPayment }) {
  const left = payment.refundable;
  const [text, setText] = useState(String(left));
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const key = useRef(newKey());
  const refund = useCreateRefund();

  function change(value: string) {
    setText(value.replace(/[^\d]/g, ""));
    setError(null);
    setServerError(null);
    setDone(null);
    setConfirming(null);
    key.current = newKey();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkRefundAmount(text, left);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setConfirming(checked.amount);
  }

  function confirm() {
    if (confirming === null) return;
    setServerError(null);
    setDone(null);
    refund.mutate(
      { payid: payment.id, amount: confirming, idempotencyKey: key.current },
      {
        onSuccess: (answer) => {
          key.current = newKey();
          setConfirming(null);
          setDone(answerText(answer));
          setText(String(answer.refundable));
        },
        onError: (err) => {
          // Without an answer (network) or without Swish's (502) the refund may exist: a retry keeps the key.
          const unanswered = err instanceof ApiError && (err.status === 0 || err.status === 502);
          if (!unanswered) key.current = newKey();
          setConfirming(null);
          setServerError(err.message);
        },
      },
    );
  }

  const status = (
    <>
      {serverError && (
        <p className="alert alert-error" role="alert">
          {serverError}
        </p>
      )}
      {done && (
        <p className="alert alert-success" role="status">
          {done}
        </p>
      )}
    </>
  );

  if (left <= 0 && confirming === null) {
    return (
      <div className="refund-form">
        <p className="muted">Betalningen är helt återbetald.</p>
        {status}
      </div>
    );
  }

  return (
    <form className="refund-form" onSubmit={submit} noValidate aria-label="Återbetala">
      <h4 className="refund-title">Återbetala</h4>
      <div className="refund-row">
        <Field label="Belopp (kr)" error={error} hint={`Kvar att återbetala: ${kronor(left)}`}>
          {(control) => (
            <input
              {...control}
              name="amount"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              className="refund-amount"
              value={text}
              disabled={refund.isPending}
              onChange={(e) => change(e.target.value)}
            />
          )}
        </Field>
        {confirming === null && (
          <div className="refund-actions">
            <Button type="submit" disabled={refund.isPending}>
              Återbetala
            </Button>
            {text !== String(left) && (
              <Button variant="text" size="small" onClick={() => change(String(left))}>
                Hela beloppet
              </Button>
            )}
          </div>
        )}
      </div>
      {confirming !== null && (
        <div className="refund-confirm" role="group" aria-label="Bekräfta återbetalningen">
          <p>
            Återbetala <strong>{kronor(confirming)}</strong>
            {payment.payerAlias ? ` till ${payment.payerAlias}` : ""} via Swish?
          </p>
          <div className="refund-actions">
            <Button variant="primary" loading={refund.isPending} onClick={confirm}>
              Ja, återbetala {kronor(confirming)}
            </Button>
            <Button variant="text" disabled={refund.isPending} onClick={() => setConfirming(null)}>
              Avbryt
            </Button>
          </div>
        </div>
      )}
      {status}
    </form>
  );
}
