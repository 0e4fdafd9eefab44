/** The family's runners: name, age, distance and price; tapping a runner opens it for editing (unless locked). */
import { distanceLabel } from "../../../shared/distances";
import type { PriceTier } from "../../../shared/season";
import type { Runner } from "./api/types";
import { formatAge, formatKr } from "./format";

function runnerPriceOf(age: number, tier: PriceTier, adultAge: number): number {
  return age >= adultAge ? tier.adult : tier.child;
}

export function RunnerList({
  runners,
  tier,
  adultAge,
  onEdit,
}: {
  runners: readonly Runner[];
  tier: PriceTier;
  adultAge: number;
  /** Absent when the list is locked (paid or closed): the rows are then plain text. */
  onEdit?: (runner: Runner) => void;
}) {
  if (runners.length === 0) {
    return <p className="runner-list-empty">Inga löpare ännu. Lägg till den första nedan.</p>;
  }
  return (
    <ul className="runner-list" aria-label="Anmälda löpare">
      {runners.map((r) => {
        const body = (
          <>
            <span className="runner-name">
              {r.firstname} {r.lastname}
              <small className="runner-facts">
                {formatAge(r.age)} · {distanceLabel(r.distance)}
                {r.bib ? ` · nr ${r.bib}` : ""}
              </small>
            </span>
            <span className="runner-price">{formatKr(runnerPriceOf(r.age, tier, adultAge))}</span>
          </>
        );
        return (
          <li key={r.id}>
            {onEdit ? (
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
