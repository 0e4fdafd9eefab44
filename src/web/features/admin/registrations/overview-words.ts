/** How the registrations screen writes payments, refunds, runners and moments in Swedish. */
import type { PaymentStatus } from "../../../../shared/payment-protocol";
import type { OverviewRunner, RefundStatus } from "../../../../shared/registrations-overview";
import { formatSwedishDateTime } from "../../../../shared/stockholm";

export const PAYMENT_STATUS_WORDS: Record<PaymentStatus, string> = {
  PAID: "Betald",
  CREATED: "Väntar på betalning",
  DECLINED: "Avbruten av betalaren",
  ERROR: "Misslyckad",
  CANCELLED: "Återkallad",
};

export const REFUND_STATUS_WORDS: Record<RefundStatus, string> = {
  PAID: "Återbetald",
  CREATED: "Väntar på Swish",
  ERROR: "Nekad",
};

/** '2025-09-13 11:45' (Stockholm) from an ISO string; '–' when there is none. */
export function moment(iso: string | null | undefined): string {
  if (!iso) return "–";
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? "–" : formatSwedishDateTime(ms);
}

/** '5,6 km' */
export function km(runner: Pick<OverviewRunner, "distance">): string {
  return `${runner.distance.replace(".", ",")} km`;
}

export function fullName(runner: Pick<OverviewRunner, "firstname" | "lastname">): string {
  return `${runner.firstname} ${runner.lastname}`.trim();
}

const kronorFormat = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 0 });

/** '34 500 kr' (spec: kr in lists). */
export function kronor(n: number): string {
  return `${kronorFormat.format(n)} kr`;
}
