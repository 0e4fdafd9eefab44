/**
 * The two overview variants' lists (spec §2 "Registrations list"). Each row shows its runners (name, bib, company,
 * distance in km, age; a runner a refund deregistered struck through), the payment badge (opens the payment
 * dialog), 'Återbetald' when money went back, the e-mail and an info icon (the details dialog). A whole season is thousands of rows: they come in steps (useProgressiveCount) and rows off screen cost
 * no layout (`content-visibility` in registrations.css); a row re-renders only when its registration changed.
 */
import { stockholmParts } from "../../../../shared/stockholm";
import { memo, useMemo } from "react";
import {
  isPaidRunner,
  paymentBadgeText,
  refundedOf,
  type GroupKey,
  type OverviewGroup,
  type OverviewRegistration,
  type OverviewRunner,
  type ParticipantRow,
} from "../../../../shared/registrations-overview";
import { useProgressiveCount } from "../../../lib/use-progressive-count";
import { InfoIcon } from "./info-icon";
import { fullName, km } from "./overview-words";

export type OpenDialog = (kind: "info" | "payment", registrationId: string) => void;

interface RowProps {
  registration: OverviewRegistration;
  runners: readonly OverviewRunner[];
  /** The group the row stands in: its paid runners' distance, or 'nok' for its unpaid ones. */
  group: GroupKey;
  onOpen: OpenDialog;
}

const Row = memo(function Row({ registration, runners, group, onOpen }: RowProps) {
  const paid = group !== "nok" && runners.some((x) => x.paidBy !== null);
  const badge = paymentBadgeText(registration, group);
  const refunded = refundedOf(registration) > 0;
  return (
    <li className="reg-row">
      <ul className="reg-runners">
        {runners.map((x) => (
          <li key={x.id} className={`reg-runner${x.deregistered ? " reg-runner-deregistered" : ""}`}>
            <span className="reg-name">
              {fullName(x)}
              {x.companion && <span className="reg-runner-note"> (med barn, ej tävlande)</span>}
              {x.deregistered && <span className="reg-runner-note"> (avregistrerad)</span>}
              {group !== "nok" && !isPaidRunner(x) && !x.deregistered && (
                <span className="reg-runner-note"> (ej betald)</span>
              )}
            </span>
            <span className="reg-bib" title="Startnummer">
              {x.bib ? `#${x.bib}` : "–"}
            </span>
            <span className="reg-company">{x.company}</span>
            <span className="reg-km">{km(x)}</span>
            <span className="reg-age">{x.age} år</span>
            {x.pickedUpAt !== undefined && (
              <span className="reg-picked" title="Nummerlappen hämtad vid disken">
                Hämtat {stockholmParts(x.pickedUpAt).time}
              </span>
            )}
          </li>
        ))}
      </ul>
      <div className="reg-meta">
        <button
          type="button"
          className={`pay-badge ${paid ? "pay-badge-paid" : "pay-badge-unpaid"}`}
          onClick={() => onOpen("payment", registration.id)}
          aria-label={`Betalning för ${registration.email}: ${badge}`}
        >
          {badge}
        </button>
        {refunded && <span className="pay-badge pay-badge-refunded">Återbetald</span>}
        <span className="reg-email">{registration.email}</span>
        <button
          type="button"
          className="info-button"
          onClick={() => onOpen("info", registration.id)}
          aria-label={`Detaljer för ${registration.email}`}
        >
          <InfoIcon />
        </button>
      </div>
    </li>
  );
});

/** Variant 1: the five groups with their labels and counts; rows by payment date, newest first. */
export function GroupedList({
  groups,
  onOpen,
  resetKey,
}: {
  groups: readonly OverviewGroup[];
  onOpen: OpenDialog;
  resetKey: unknown;
}) {
  const total = groups.reduce((n, g) => n + g.rows.length, 0);
  const shown = useProgressiveCount(total, resetKey);
  // Each group's first row's place among all rows: the rows shown so far fill the groups in order.
  const offsets = groups.map((_, i) => groups.slice(0, i).reduce((n, g) => n + g.rows.length, 0));
  return (
    <div className="reg-groups">
      {groups.map((g, i) => {
        const visible = g.rows.slice(0, Math.max(0, shown - offsets[i]!));
        const headingId = `reg-group-${g.key}`;
        return (
          <section key={g.key} className={`reg-group reg-group-${g.key === "nok" ? "nok" : "paid"}`}>
            <h3 id={headingId} className="reg-group-heading">
              <span className="reg-group-label">{g.label}</span> <span className="reg-group-count">({g.count})</span>
            </h3>
            {g.rows.length === 0 ? (
              <p className="muted reg-empty">Inga anmälningar.</p>
            ) : (
              <ul className="reg-list" aria-labelledby={headingId}>
                {visible.map((row) => (
                  <Row
                    key={row.registration.id}
                    registration={row.registration}
                    runners={row.runners}
                    group={g.key}
                    onOpen={onOpen}
                  />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** Variant 2: paid registrations only, one row per runner, by payment date, oldest first. */
export function PaidList({
  rows,
  onOpen,
  resetKey,
}: {
  rows: readonly ParticipantRow[];
  onOpen: OpenDialog;
  resetKey: unknown;
}) {
  const shown = useProgressiveCount(rows.length, resetKey);
  // One array per runner, made once per list, so an unchanged row is not rendered again.
  const single = useMemo(() => rows.map((row) => [row.runner]), [rows]);
  if (rows.length === 0) return <p className="muted reg-empty">Inga betalda deltagare.</p>;
  return (
    <ul className="reg-list reg-list-paid" aria-label="Betalda deltagare">
      {rows.slice(0, shown).map((row, i) => (
        <Row
          key={row.runner.id}
          registration={row.registration}
          runners={single[i]!}
          group={row.runner.distance}
          onOpen={onOpen}
        />
      ))}
    </ul>
  );
}
