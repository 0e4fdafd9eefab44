/**
 * Refund a paid Swish payment, in full or in part (POST /admin/api/refunds). The organiser chooses between a refund
 * that keeps the runners and 'Återbetala och avregistrera' (issue 24), which takes the runners ticked below out of
 * their races, the goodie bags, the exports and the current-runners mailing once Swish has paid back; ticking them
 * sets the amount to what they were booked at (it can be changed). Adults of the family who run with the children
 * taken out and would be left without any child are listed below them (refund-companions.tsx, issue 39): 'Ta också
 * bort …', ticked, takes one booked by another payment out too, with its own refund. The amount is checked here
 * with the server's rule (whole kronor, 1 … what is left), then confirmed in a second step. The request carries an
 * idempotency key made for this refund: a retry after a lost answer sends the same key and gets the first refund
 * back, never a second one. A new key is made once the server has answered (or the amount, the runners or the
 * companions change).
 */
import { useRef, useState, type FormEvent } from "react";
import type { OverviewPayment, OverviewRunner } from "../../../../shared/registrations-overview";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api";
import { useCreateRefund, type RefundAnswer } from "./api/create-refund";
import { fullName, kronor } from "./overview-words";
import { checkRefundAmount } from "./refund-amount";
import { companionMoneyText, leftCompanions, RefundCompanions } from "./refund-companions";

function newKey(): string {
  return crypto.randomUUID();
}

/** What became of the companions refunded from their own payments. */
function companionRefundText(a: RefundAnswer, name: (id: string) => string): string {
  return (a.deregistration?.companionRefunds ?? [])
    .map((c) =>
      c.status === "PAID"
        ? ` ${name(c.id)} har fått ${kronor(c.amount)} tillbaka från sin betalning och är avregistrerad.`
        : c.status === "CREATED"
          ? ` Återbetalningen på ${kronor(c.amount)} för ${name(c.id)} väntar på Swish; ${name(c.id)} avregistreras när den är klar.`
          : ` ${name(c.id)} är kvar som anmäld: ${c.error ?? "återbetalningen nekades"}`,
    )
    .join("");
}

function answerText(a: RefundAnswer, names: Map<string, string>): string {
  const name = (id: string) => names.get(id) ?? id;
  const money =
    a.refund.status === "PAID"
      ? `${kronor(a.refund.amount)} är återbetalt till betalaren.`
      : `Återbetalningen på ${kronor(a.refund.amount)} är skickad till Swish och väntar på bekräftelse.`;
  if (a.deregister.length === 0) return money;
  if (!a.deregistration) {
    return `${money} ${a.deregister.map(name).join(", ")} avregistreras när Swish har betalat tillbaka.`;
  }
  const kept = a.deregistration.keptInRace.map(
    (k) =>
      ` ${name(k.id)} står kvar i ${k.part}: loppet har ${k.state === "ended" ? "avslutats" : "startat"} (markera på tävlingsskärmen vid behov).`,
  );
  const out = a.deregistration.runners.map(name).join(", ");
  return `${money}${out ? ` ${out} är avregistrerad.` : ""}${kept.join("")}${companionRefundText(a, name)}`;
}

export function RefundForm({
  payment,
  runners = [],
  family = runners,
}: {
  payment: OverviewPayment;
  runners?: readonly OverviewRunner[];
  /** Every runner of the registration: who runs with the children taken out. */
  family?: readonly OverviewRunner[];
}) {
  const left = payment.refundable;
  const [text, setText] = useState(String(left));
  const [deregister, setDeregister] = useState(false);
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set(runners.map((r) => r.id)));
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const key = useRef(newKey());
  const refund = useCreateRefund();
  const [keep, setKeep] = useState<ReadonlySet<string>>(() => new Set());
  const names = new Map(family.map((r) => [r.id, fullName(r)]));
  const leaving = deregister ? runners.filter((r) => picked.has(r.id)) : [];
  const alone = leftCompanions(new Set(leaving.map((r) => r.id)), family, runners);
  const along = alone.offered.filter((r) => !keep.has(r.id));

  function reset() {
    setError(null);
    setServerError(null);
    setDone(null);
    setConfirming(null);
    key.current = newKey();
  }

  function change(value: string) {
    setText(value.replace(/[^\d]/g, ""));
    reset();
  }

  /** The amount the ticked runners were booked at (what is left at most), when every price is known. */
  function suggest(ids: ReadonlySet<string>, on: boolean) {
    const chosen = runners.filter((r) => ids.has(r.id));
    if (!on || chosen.length === 0 || chosen.some((r) => r.price === null)) return;
    setText(
      String(
        Math.min(
          left,
          chosen.reduce((sum, r) => sum + (r.price ?? 0), 0),
        ),
      ),
    );
  }

  function choose(on: boolean) {
    setDeregister(on);
    reset();
    suggest(picked, on);
  }

  function toggle(id: string) {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
    reset();
    suggest(next, true);
  }

  function toggleCompanion(id: string) {
    const next = new Set(keep);
    if (!next.delete(id)) next.add(id);
    setKeep(next);
    reset();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkRefundAmount(text, left);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    if (deregister && leaving.length === 0) {
      setError("Kryssa i vem som ska avregistreras.");
      return;
    }
    setConfirming(checked.amount);
  }

  function confirm() {
    if (confirming === null) return;
    setServerError(null);
    setDone(null);
    refund.mutate(
      {
        payid: payment.id,
        amount: confirming,
        idempotencyKey: key.current,
        ...(leaving.length > 0 ? { deregister: leaving.map((r) => r.id) } : {}),
        ...(along.length > 0 ? { companions: along.map((r) => r.id) } : {}),
      },
      {
        onSuccess: (answer) => {
          key.current = newKey();
          setConfirming(null);
          setDone(answerText(answer, names));
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
      {runners.length > 0 && (
        <fieldset className="refund-choice" disabled={refund.isPending || confirming !== null}>
          <legend>Löparna</legend>
          <label>
            <input type="radio" name="refund-kind" checked={!deregister} onChange={() => choose(false)} />
            Återbetala, löparna är kvar
          </label>
          <label>
            <input type="radio" name="refund-kind" checked={deregister} onChange={() => choose(true)} />
            Återbetala och avregistrera
          </label>
          {deregister && (
            <fieldset className="refund-runners" aria-label="Avregistrera">
              {runners.map((r) => (
                <label key={r.id}>
                  <input type="checkbox" checked={picked.has(r.id)} onChange={() => toggle(r.id)} />
                  {fullName(r)}
                  {r.price !== null && <span className="muted">({kronor(r.price)})</span>}
                </label>
              ))}
            </fieldset>
          )}
          {deregister && <RefundCompanions left={alone} keep={keep} onToggle={toggleCompanion} />}
        </fieldset>
      )}
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
              {deregister ? "Återbetala och avregistrera" : "Återbetala"}
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
            {payment.payerAlias ? ` till ${payment.payerAlias}` : ""} via Swish
            {leaving.length > 0 ? (
              <>
                {" "}
                och avregistrera <strong>{leaving.map(fullName).join(", ")}</strong>
                {along.length > 0 && (
                  <>
                    {" "}
                    och <strong>{along.map(fullName).join(", ")}</strong> (
                    {along.map((r) => `${r.firstname}: ${companionMoneyText(r)}`).join("; ")})
                  </>
                )}
                ?
              </>
            ) : (
              "?"
            )}
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
