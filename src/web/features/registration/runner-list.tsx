/**
 * The family's runners: name, age, distance and price; tapping a runner opens it for editing (unless locked). A
 * paid runner shows the price it was booked at and 'Betald', an unpaid one today's price, a runner a refund took
 * out 'Avregistrerad' (and cannot be opened).
 */
import { COMPANION_LABEL } from "../../../shared/companion";
import { distanceLabel } from "../../../shared/distances";
import { runnerState } from "../../../shared/registration-view";
import type { PriceTier } from "../../../shared/season";
import type { Runner } from "./api/types";
import { formatAge, formatKr } from "../../lib/format";

function runnerPriceOf(r: Runner, tier: PriceTier, adultAge: number, companionPrice: number): number {
  if (r.companion === true) return companionPrice;
  return r.age >= adultAge ? tier.adult : tier.child;
}

export function RunnerList({
  runners,
  tier,
  adultAge,
  companionPrice = 0,
  onEdit,
}: {
  runners: readonly Runner[];
  tier: PriceTier;
  adultAge: number;
  companionPrice?: number;
  /** Absent when the list is locked (paid or closed): the rows are then plain text. */
  onEdit?: (runner: Runner) => void;
}) {
  if (runners.length === 0) {
    return <p className="runner-list-empty">Inga löpare ännu. Lägg till den första nedan.</p>;
  }
  return (
    <ul className="runner-list" aria-label="Anmälda löpare">
      {runners.map((r) => {
        const state = runnerState(r);
        const price = state === "unpaid" ? runnerPriceOf(r, tier, adultAge, companionPrice) : r.price;
        const body = (
          <>
            <span className="runner-name">
              {r.firstname} {r.lastname}
              <small className="runner-facts">
                {formatAge(r.age)} · {distanceLabel(r.distance)}
                {r.bib ? ` · nr ${r.bib}` : ""}
                {r.companion === true && ` · ${COMPANION_LABEL}`}
              </small>
            </span>
            <span className="runner-price">
              {price !== null && (state === "deregistered" ? <s>{formatKr(price)}</s> : formatKr(price))}
              {state !== "unpaid" && (
                <small className={`runner-paid runner-paid-${state}`}>
                  {state === "paid" ? "Betald" : "Avregistrerad"}
                </small>
              )}
            </span>
          </>
        );
        return (
          <li key={r.id}>
            {onEdit && state !== "deregistered" ? (
              <button type="button" className="runner-row" onClick={() => onEdit(r)}>
                <span className="visually-hidden">Ändra </span>
                {body}
                <svg className="runner-row-chevron" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                  <path d="M9 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </button>
            ) : (
              <div className="runner-row">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
