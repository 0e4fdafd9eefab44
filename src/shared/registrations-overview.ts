/**
 * The registrations overview of the admin area (spec admin-area.md §2 "Registrations list", §4 "Payment status",
 * §9): the wire shape of `GET /admin/registrations` and the pure rules both variants of /admin/list-by-race are
 * drawn from: which registration counts as paid, the groups and their counts, the orderings, the heading's figures,
 * the badge texts and the search.
 *
 * - Paid is each runner's (issue 24, replacing "the registration's payid is PAID"): a runner is paid by the payment
 *   that booked it (`paidBy`), and a registration may have several payments (a runner added after the first is paid
 *   by a second). A runner a refund deregistered is no longer paid. Unpaid runners go to 'nok'.
 * - Registrations without runners are dropped from every list.
 * - Groups 5.6, 2.8, 1.6, 0.8, then 'nok'; groups and counts are by runner, so a family with runners on two
 *   distances is listed under both (each time with the runners of that distance), and a family with a paid runner
 *   and an unpaid one under the paid runner's distance and under 'nok'. A deregistered runner stays on its
 *   distance's row (marked), not counted.
 * - Paid sum: the PAID amounts parsed as integers, each payment once. Paid count: the paid runners; adults running
 *   with a child without competing (shared/companion.ts) are listed (marked) but counted apart, never as runners
 *   of their distance.
 * - Order: payment date descending within a group (variant 1), ascending in the paid-only list (variant 2); the
 *   runners of one registration by age.
 */
import { isCampaignPayid, payidLabel } from "./campaign";
import { distanceLabel, DISTANCES_DESC } from "./distances";
import type { PaymentRecord } from "./payment-protocol";
import { isSwishPaymentId } from "./payment-protocol";
import type { DistanceKm } from "./season";

export type RefundStatus = "CREATED" | "PAID" | "ERROR";

/** One refund of a payment. `date` is when it was asked for; `datePaid` when Swish paid it back. ISO strings. */
export interface RefundRecord {
  id: string;
  /** Whole kronor. */
  amount: number;
  status: RefundStatus;
  date: string;
  datePaid: string | null;
  errorCode: string | null;
  errorMessage: string | null;
}

/** A swishtory entry as the admin sees it: the payment record plus its refunds. */
export interface OverviewPayment extends PaymentRecord {
  /** The campaign code the order used, if any. */
  kampanj?: string | null;
  refunds: RefundRecord[];
  /** Kronor Swish has paid back (PAID refunds). */
  refunded: number;
  /** Kronor that may still be refunded: the amount minus every refund that is not ERROR; 0 when not refundable. */
  refundable: number;
}

/** Spec: deltagare entries (id, firstname, lastname, bib, company, distance, age) plus the group. */
export interface OverviewRunner {
  id: string;
  firstname: string;
  lastname: string;
  bib: number | null;
  company: string;
  distance: DistanceKm;
  age: number;
  group: string;
  /** The payid of the payment that booked the runner; null while unpaid. */
  paidBy: string | null;
  /** Whole kronor the runner was booked at; null while unpaid or unknown. */
  price: number | null;
  /** ISO moment a refund deregistered the runner; null while it runs. */
  deregistered: string | null;
  /** When the bib was picked up at the desk (epoch ms); absent until then. */
  pickedUpAt?: number;
  /** An adult running with a child without competing (shared/companion.ts): no bib, counted apart. */
  companion?: true;
}

/** One entry of `GET /admin/api/box-office-sales`: a box-office payment and the runner it signed up. */
export interface BoxOfficeSale {
  payment: OverviewPayment & { method: "swish" | "kontant" | "kampanj" };
  runner: OverviewRunner | null;
}

/** One entry of `GET /admin/registrations` (spec: email, payid, swishtory, deltagare). */
export interface OverviewRegistration {
  id: string;
  email: string;
  payid: string | null;
  /** ISO; when the family first saved the registration. */
  createdAt: string;
  swishtory: Record<string, OverviewPayment>;
  deltagare: Record<string, OverviewRunner>;
}

export type GroupKey = DistanceKm | "nok";

/** Spec: 5.6, 2.8, 1.6, 0.8, then 'nok'. */
export const GROUP_ORDER: readonly GroupKey[] = [...DISTANCES_DESC, "nok"];

/** '5,6km' … '0,8km', and 'nok'. */
export function groupLabel(key: GroupKey): string {
  return key === "nok" ? "nok" : distanceLabel(key);
}

/** A payment that can be refunded at all: a paid Swish payment of more than 0 kr (never a campaign order). */
export function isRefundablePayment(p: Pick<PaymentRecord, "id" | "status" | "amount">): boolean {
  return p.status === "PAID" && p.amount > 0 && isSwishPaymentId(p.id) && !isCampaignPayid(p.id);
}

/** What is left to refund: the amount minus every refund that has not failed (those still on their way count). */
export function refundableAmount(
  p: Pick<PaymentRecord, "id" | "status" | "amount">,
  refunds: readonly Pick<RefundRecord, "amount" | "status">[],
): number {
  if (!isRefundablePayment(p)) return 0;
  const taken = refunds.reduce((sum, r) => (r.status === "ERROR" ? sum : sum + r.amount), 0);
  return Math.max(0, p.amount - taken);
}

/** The payment the registration shows (its payid: the latest one), if its swishtory has it. */
export function selectedPayment(r: OverviewRegistration): OverviewPayment | null {
  return r.payid === null ? null : (r.swishtory[r.payid] ?? null);
}

/** A runner paid by its payment and not deregistered since. */
export function isPaidRunner(x: Pick<OverviewRunner, "paidBy" | "deregistered">): boolean {
  return x.paidBy !== null && x.deregistered === null;
}

/** A registration with at least one paid runner (it shows under the distances; its unpaid runners under 'nok'). */
export function isPaidRegistration(r: OverviewRegistration): boolean {
  return runnersOf(r).some(isPaidRunner);
}

/** The registration's PAID payments, oldest first. */
export function paidPayments(r: OverviewRegistration): OverviewPayment[] {
  return Object.values(r.swishtory)
    .filter((p) => p.status === "PAID")
    .sort((a, b) => (a.datePaid ?? a.dateCreated).localeCompare(b.datePaid ?? b.dateCreated));
}

/** Kronor Swish has paid back of the registration's payments; > 0 shows the row as 'Återbetald'. */
export function refundedOf(r: OverviewRegistration): number {
  return Object.values(r.swishtory).reduce((sum, p) => sum + p.refunded, 0);
}

export function runnersOf(r: OverviewRegistration): OverviewRunner[] {
  return Object.values(r.deltagare);
}

/** Spec: "Registrations with no participants are dropped from admin lists." */
export function withRunners(list: readonly OverviewRegistration[]): OverviewRegistration[] {
  return list.filter((r) => runnersOf(r).length > 0);
}

/** One collator for every comparison: `localeCompare(…, "sv")` builds one per call, far too slow for a season. */
const swedish = new Intl.Collator("sv");

/** Runners of one registration by age (youngest first), then by name so the order is stable. */
export function byAge(a: OverviewRunner, b: OverviewRunner): number {
  return (
    a.age - b.age ||
    swedish.compare(a.lastname, b.lastname) ||
    swedish.compare(a.firstname, b.firstname) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function byEmail(a: OverviewRegistration, b: OverviewRegistration): number {
  return a.email < b.email ? -1 : a.email > b.email ? 1 : 0;
}

export function runnersByAge(r: OverviewRegistration): OverviewRunner[] {
  return runnersOf(r).sort(byAge);
}

/** Spec §9: amounts "parsed as integers" (the wire has whole kronor; anything unreadable counts 0). */
export function amountAsInteger(amount: unknown): number {
  const n = Number.parseInt(String(amount), 10);
  return Number.isNaN(n) ? 0 : n;
}

/** Epoch ms of an ISO string; 0 when it cannot be read. */
function ms(iso: string | null | undefined): number {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
}

/**
 * The moment a registration is ordered by: its latest payment's paid date, else when that payment was made, else
 * when the registration was. Epoch ms.
 */
export function paymentMoment(r: OverviewRegistration): number {
  const p = selectedPayment(r);
  return ms(p?.datePaid ?? p?.dateCreated ?? r.createdAt);
}

/** When a runner's payment was paid (or made); the registration's moment for a runner without one. Epoch ms. */
function runnerMoment(r: OverviewRegistration, x: OverviewRunner): number {
  const p = x.paidBy ? r.swishtory[x.paidBy] : undefined;
  return p ? ms(p.datePaid ?? p.dateCreated) : paymentMoment(r);
}

export interface OverviewTotals {
  /** Paid runners (not deregistered), companions not among them. */
  paidParticipants: number;
  /** Paid adults running with a child without competing (shared/companion.ts). */
  paidCompanions: number;
  /** Kronor: the PAID amounts as integers, each payment once. */
  paidSum: number;
  /** Kronor Swish has paid back on those payments. */
  refunded: number;
  registrations: number;
}

export function overviewTotals(list: readonly OverviewRegistration[]): OverviewTotals {
  let paidParticipants = 0;
  let paidCompanions = 0;
  let paidSum = 0;
  let refunded = 0;
  let registrations = 0;
  for (const r of list) {
    const runners = runnersOf(r);
    if (runners.length === 0) continue;
    registrations++;
    paidParticipants += runners.filter((x) => isPaidRunner(x) && x.companion !== true).length;
    paidCompanions += runners.filter((x) => isPaidRunner(x) && x.companion === true).length;
    for (const p of paidPayments(r)) {
      paidSum += amountAsInteger(p.amount);
      refunded += p.refunded;
    }
  }
  return { paidParticipants, paidCompanions, paidSum, refunded, registrations };
}

export interface GroupRow {
  registration: OverviewRegistration;
  /** The runners listed in this group (the group's distance; every runner in 'nok'), by age. */
  runners: OverviewRunner[];
}

export interface OverviewGroup {
  key: GroupKey;
  label: string;
  /** Runners in the group. */
  count: number;
  rows: GroupRow[];
}

/**
 * The runners a group counts: every one under 'nok', the paid ones (not deregistered) under a distance, where an
 * adult running with a child is listed but not counted (not one of the distance's runners).
 */
function countedIn(key: GroupKey, runners: readonly OverviewRunner[]): number {
  return key === "nok" ? runners.length : runners.filter((x) => isPaidRunner(x) && x.companion !== true).length;
}

/**
 * Variant 1: every registration with runners, its paid runners under each distance they run (with the runners a
 * refund deregistered, marked and not counted), its unpaid runners under 'nok'; within a group by payment date,
 * newest first. All five groups are returned, empty ones too.
 */
export function groupByDistance(list: readonly OverviewRegistration[]): OverviewGroup[] {
  const rows = new Map<GroupKey, { row: GroupRow; at: number }[]>(GROUP_ORDER.map((k) => [k, []]));
  for (const registration of list) {
    const runners = runnersByAge(registration);
    if (runners.length === 0) continue;
    const unpaid = runners.filter((x) => x.paidBy === null);
    if (unpaid.length > 0)
      rows.get("nok")!.push({ row: { registration, runners: unpaid }, at: paymentMoment(registration) });
    for (const d of DISTANCES_DESC) {
      const onDistance = runners.filter((x) => x.paidBy !== null && x.distance === d);
      if (onDistance.length === 0) continue;
      const at = Math.max(...onDistance.map((x) => runnerMoment(registration, x)));
      rows.get(d)!.push({ row: { registration, runners: onDistance }, at });
    }
  }
  return GROUP_ORDER.map((key) => {
    const entries = rows.get(key)!;
    entries.sort((a, b) => b.at - a.at || byEmail(a.row.registration, b.row.registration));
    return {
      key,
      label: groupLabel(key),
      count: entries.reduce((n, e) => n + countedIn(key, e.row.runners), 0),
      rows: entries.map((e) => e.row),
    };
  });
}

export interface ParticipantRow {
  registration: OverviewRegistration;
  runner: OverviewRunner;
}

/**
 * Variant 2: paid runners only, one row per runner, by the date their payment was paid, oldest first; the runners
 * of one payment together, by age.
 */
export function paidParticipantRows(list: readonly OverviewRegistration[]): ParticipantRow[] {
  const rows = list.flatMap((registration) =>
    runnersByAge(registration)
      .filter(isPaidRunner)
      .map((runner) => ({ row: { registration, runner }, at: runnerMoment(registration, runner) })),
  );
  rows.sort(
    (a, b) =>
      a.at - b.at ||
      byEmail(a.row.registration, b.row.registration) ||
      (a.row.runner.paidBy ?? "").localeCompare(b.row.runner.paidBy ?? "") ||
      byAge(a.row.runner, b.row.runner),
  );
  return rows.map((r) => r.row);
}

/**
 * Spec: unpaid registrations show 'Ej betald' or 'Ej betalt'. Read here as: 'Ej betald' when the registration's
 * latest payment is not (yet) PAID (a payment was tried for its unpaid runners), 'Ej betalt' when none was tried.
 */
export function unpaidText(r: OverviewRegistration): "Ej betald" | "Ej betalt" {
  const p = selectedPayment(r);
  return p !== null && p.status !== "PAID" ? "Ej betald" : "Ej betalt";
}

/**
 * The payment badge. For the paid runners (every group but 'nok'): what the registration has paid ('250 kr', the
 * PAID amounts added up), or the payid's label when that is 0 (spec: "A payid containing an underscore shows its
 * second part as a label when the amount is 0", the campaign code of a free order). For 'nok', and for a
 * registration with nothing paid: 'Ej betald' / 'Ej betalt'.
 */
export function paymentBadgeText(r: OverviewRegistration, group?: GroupKey): string {
  const paid = paidPayments(r);
  if (group === "nok" || paid.length === 0) return unpaidText(r);
  const amount = paid.reduce((sum, p) => sum + amountAsInteger(p.amount), 0);
  const latest = paid.at(-1)!;
  return (amount === 0 ? payidLabel(latest.id, 0) : null) ?? `${amount} kr`;
}

/** The search words: lower-cased, split on white space. (Swedish has no casing rules of its own: å ä ö fold.) */
export function searchTokens(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

const runnerTexts = new WeakMap<OverviewRunner, string>();
const haystacks = new WeakMap<OverviewRegistration, string>();

/** A runner's name, lower-cased (once per loaded runner). */
function runnerText(x: OverviewRunner): string {
  let text = runnerTexts.get(x);
  if (text === undefined) {
    text = `${x.firstname} ${x.lastname}`.toLowerCase();
    runnerTexts.set(x, text);
  }
  return text;
}

/** The e-mail and every runner's name of a registration, lower-cased (once per loaded registration). */
function haystack(r: OverviewRegistration): string {
  let text = haystacks.get(r);
  if (text === undefined) {
    text = [r.email.toLowerCase(), ...runnersOf(r).map(runnerText)].join("\n");
    haystacks.set(r, text);
  }
  return text;
}

/** A registration matches when every word is found in its e-mail or in its runners' names. */
export function matchesRegistration(r: OverviewRegistration, tokens: readonly string[]): boolean {
  if (tokens.length === 0) return true;
  const text = haystack(r);
  return tokens.every((t) => text.includes(t));
}

/** A runner's row matches when every word is found in the runner's own name or the registration's e-mail. */
export function matchesRunner(r: OverviewRegistration, runner: OverviewRunner, tokens: readonly string[]): boolean {
  if (tokens.length === 0) return true;
  const name = runnerText(runner);
  const email = r.email.toLowerCase();
  return tokens.every((t) => name.includes(t) || email.includes(t));
}

/** A group's row matches when every word is found in the e-mail or in the names of the runners it lists. */
export function matchesGroupRow(row: GroupRow, tokens: readonly string[]): boolean {
  if (tokens.length === 0) return true;
  const email = row.registration.email.toLowerCase();
  return tokens.every((t) => email.includes(t) || row.runners.some((x) => runnerText(x).includes(t)));
}

/**
 * Variant 1 searched: each group keeps the rows that match, and its count becomes theirs. A family found by a
 * child's name shows under the child's distance only; found by its e-mail, under each of its distances.
 */
export function filterGroups(groups: readonly OverviewGroup[], query: string): OverviewGroup[] {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return [...groups];
  return groups.map((g) => {
    const rows = g.rows.filter((row) => matchesGroupRow(row, tokens));
    return { ...g, rows, count: rows.reduce((n, row) => n + countedIn(g.key, row.runners), 0) };
  });
}

export function filterRegistrations(list: readonly OverviewRegistration[], query: string): OverviewRegistration[] {
  const tokens = searchTokens(query);
  return tokens.length === 0 ? [...list] : list.filter((r) => matchesRegistration(r, tokens));
}

export function filterParticipantRows(rows: readonly ParticipantRow[], query: string): ParticipantRow[] {
  const tokens = searchTokens(query);
  return tokens.length === 0 ? [...rows] : rows.filter((x) => matchesRunner(x.registration, x.runner, tokens));
}
