/**
 * Issue 39, item 2, in the refund dialog: the adults of the family who run with the children this refund takes out
 * and would be left without any child (shared/companion.ts companionsLeftWithoutChild). Each paid one another
 * payment booked is offered 'Ta också bort …', ticked: it leaves once the refund is PAID, its own price paid back
 * from its own payment when it cost anything (payments/deregistration.ts). One this payment booked is among the
 * runners above (its price is part of the amount), so it is pointed at there; an unpaid one is the family's to
 * remove.
 */
import { companionsLeftWithoutChild } from "../../../../shared/companion";
import type { OverviewRunner } from "../../../../shared/registrations-overview";
import { fullName, km, kronor } from "./overview-words";

export interface LeftCompanions {
  /** Paid by another payment: offered 'Ta också bort …'. */
  offered: OverviewRunner[];
  /** Runners of this payment, not ticked above. */
  ofThisPayment: OverviewRunner[];
  /** Not paid: the family removes them. */
  unpaid: OverviewRunner[];
}

/** Who the runners in `leaving` leave without any child in `family` (the registration's runners). */
export function leftCompanions(
  leaving: ReadonlySet<string>,
  family: readonly OverviewRunner[],
  paymentRunners: readonly OverviewRunner[],
): LeftCompanions {
  const left = companionsLeftWithoutChild(
    leaving,
    family.map((r) => ({ ...r, key: r.id })),
  );
  const ofPayment = new Set(paymentRunners.map((r) => r.id));
  const byId = new Map(family.map((r) => [r.id, r]));
  const runners = left.map((r) => byId.get(r.key)!);
  return {
    offered: runners.filter((r) => r.paidBy !== null && !ofPayment.has(r.id)),
    ofThisPayment: runners.filter((r) => ofPayment.has(r.id)),
    unpaid: runners.filter((r) => r.paidBy === null),
  };
}

/** What happens to the companion's money when it is taken out. */
export function companionMoneyText(r: OverviewRunner): string {
  return r.price ? `${kronor(r.price)} återbetalas från den egna betalningen` : "betalade 0 kr";
}

export function RefundCompanions({
  left,
  keep,
  onToggle,
}: {
  left: LeftCompanions;
  /** The offered companions the organiser unticked. */
  keep: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  if (left.offered.length + left.ofThisPayment.length + left.unpaid.length === 0) return null;
  return (
    <fieldset className="refund-runners refund-companions" aria-label="Springer med barnet">
      {left.offered.map((r) => (
        <label key={r.id}>
          <input type="checkbox" checked={!keep.has(r.id)} onChange={() => onToggle(r.id)} />
          <span>
            Ta också bort {fullName(r)}{" "}
            <span className="muted">
              (springer med barn på {km(r)}; {companionMoneyText(r)})
            </span>
          </span>
        </label>
      ))}
      {left.ofThisPayment.map((r) => (
        <p key={r.id} className="muted">
          {fullName(r)} springer med barn på {km(r)} och blir kvar utan barn. Kryssa i {r.firstname} ovan för att
          avregistrera {r.firstname} också.
        </p>
      ))}
      {left.unpaid.map((r) => (
        <p key={r.id} className="muted">
          {fullName(r)} springer med barn på {km(r)} men är inte betald: familjen kan själv ta bort {r.firstname}.
        </p>
      ))}
    </fieldset>
  );
}
