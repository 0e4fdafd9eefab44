/**
 * Bibs afterwards (issue 26, item 2): the merged finish slots (timer-alignment.ts) matched with the bibs typed in
 * finish order ('Startnummer i målordning') and the slots an organiser assigned by hand.
 *
 * - A pin (a slot assigned to a runner by hand) holds its slot, whatever the order.
 * - The bibs typed in order are matched in order with the slots nobody pinned: the k-th bib with the k-th such slot.
 *   So removing a bib typed twice moves every later bib one slot back, and a slot discarded as a stray tap moves
 *   every later bib one slot forward: that is what "in order" means.
 * - Each claim (a pin or a typed bib) names a runner: by the pin, or by the bib. The first claim on a runner gets
 *   them (pins first, then bibs in order); a claim on a runner another claim has is 'bib-twice', on a runner who
 *   has a time from elsewhere (a tile tap) or is marked DNS 'bib-finished', on a bib no runner has 'bib-unknown'
 *   (these three hold their slot without pairing it, and come with the likely meant runners among those still
 *   waiting: bib-suggestions.ts); a claim beyond the last slot is 'bib-unmatched'.
 * - A slot no claim reaches is 'slot-unmatched' when a later slot has a claim, or once the race is `settled`
 *   (ended); before that it is simply waiting for its bib.
 *
 * Pure and deterministic: the race object materialises the pairs as runners' finish times (each change audited);
 * a phone can compute the same.
 */
import { likelyBibs, type BibSuggestion } from "./bib-suggestions";

export interface MatchSlot {
  key: string;
  at: number;
  taps: readonly { id: string }[];
}

/** A slot assigned to a runner by hand: the tap it was made on (the slot holding that tap), in the order made. */
export interface MatchPin {
  tapId: string;
  runnerId: string;
}

/** A bib typed in finish order. */
export interface MatchEntry {
  id: string;
  bib: number;
}

/**
 * A runner as the matching sees them: 'waiting', 'slot' (their time came from a slot, so a new matching may move
 * it), 'timed' (a time from elsewhere: a tile tap, an applied review item) or 'dns'.
 */
export interface MatchRunner {
  id: string;
  bib: number | null;
  status: "waiting" | "slot" | "timed" | "dns";
}

export interface Claim {
  /** The entry's id, or 'pin-<tap id>'. */
  id: string;
  kind: "entry" | "pin";
  /** The entry's bib (a pin: its runner's bib, if any). */
  bib: number | null;
  /** The key of the slot it reaches, if any. */
  slot: string | null;
  /** The runner it names, if one of the race's runners. */
  runnerId: string | null;
  /** A pin: the tap it was made on. */
  tapId?: string;
}

export interface Pairing {
  runnerId: string;
  slot: string;
  at: number;
  claim: string;
}

export type MatchProblem =
  | { kind: "bib-unknown"; claim: Claim; suggestions: BibSuggestion[] }
  | { kind: "bib-twice"; claim: Claim; first: Claim; suggestions: BibSuggestion[] }
  | { kind: "bib-finished"; claim: Claim; suggestions: BibSuggestion[] }
  | { kind: "bib-unmatched"; claim: Claim }
  | { kind: "slot-unmatched"; slot: MatchSlot };

export interface BibMatching {
  pairs: Pairing[];
  /** Pins first (in the order given), then the typed bibs in order. */
  claims: Claim[];
  problems: MatchProblem[];
}

export function pinClaimId(tapId: string): string {
  return `pin-${tapId}`;
}

export function matchBibs(
  slots: readonly MatchSlot[],
  pins: readonly MatchPin[],
  entries: readonly MatchEntry[],
  runners: readonly MatchRunner[],
  options: { settled?: boolean } = {},
): BibMatching {
  const slotOfTap = new Map<string, MatchSlot>();
  for (const slot of slots) for (const tap of slot.taps) slotOfTap.set(tap.id, slot);
  const byId = new Map(runners.map((r) => [r.id, r]));
  const byBib = new Map(runners.filter((r) => r.bib !== null).map((r) => [r.bib!, r]));

  const claims: Claim[] = [];
  const pinned = new Set<string>();
  for (const pin of pins) {
    const slot = slotOfTap.get(pin.tapId);
    // A pin on a discarded tap reaches no slot; a second pin on one slot (the same runner, its taps now paired)
    // adds nothing.
    if (!slot || pinned.has(slot.key)) continue;
    pinned.add(slot.key);
    claims.push({
      id: pinClaimId(pin.tapId),
      kind: "pin",
      bib: byId.get(pin.runnerId)?.bib ?? null,
      slot: slot.key,
      runnerId: byId.has(pin.runnerId) ? pin.runnerId : null,
      tapId: pin.tapId,
    });
  }
  const open = slots.filter((s) => !pinned.has(s.key));
  entries.forEach((entry, index) => {
    claims.push({
      id: entry.id,
      kind: "entry",
      bib: entry.bib,
      slot: open[index]?.key ?? null,
      runnerId: byBib.get(entry.bib)?.id ?? null,
    });
  });

  const taken = new Map<string, Claim>();
  const pairs: Pairing[] = [];
  const slotAt = new Map(slots.map((s) => [s.key, s.at]));
  type Pending = { kind: "bib-unknown" | "bib-twice" | "bib-finished"; claim: Claim; first?: Claim };
  const pending: Pending[] = [];
  const problems: MatchProblem[] = [];
  for (const claim of claims) {
    const runner = claim.runnerId === null ? undefined : byId.get(claim.runnerId);
    if (!runner) {
      pending.push({ kind: "bib-unknown", claim });
      continue;
    }
    const first = taken.get(runner.id);
    if (first) {
      pending.push({ kind: "bib-twice", claim, first });
      continue;
    }
    if (runner.status === "timed" || runner.status === "dns") {
      pending.push({ kind: "bib-finished", claim });
      continue;
    }
    taken.set(runner.id, claim);
    if (claim.slot === null) problems.push({ kind: "bib-unmatched", claim });
    else pairs.push({ runnerId: runner.id, slot: claim.slot, at: slotAt.get(claim.slot)!, claim: claim.id });
  }

  // The likely meant runners: those still waiting (or whose slot time no claim keeps) that no claim has.
  const waiting = runners
    .filter((r) => r.bib !== null && (r.status === "waiting" || r.status === "slot") && !taken.has(r.id))
    .map((r) => r.bib!);
  for (const item of pending) {
    const suggestions =
      item.claim.kind === "entry" && item.claim.bib !== null ? likelyBibs(item.claim.bib, waiting) : [];
    if (item.kind === "bib-twice")
      problems.push({ kind: "bib-twice", claim: item.claim, first: item.first!, suggestions });
    else problems.push({ kind: item.kind, claim: item.claim, suggestions });
  }

  const claimed = new Set(claims.filter((c) => c.slot !== null).map((c) => c.slot!));
  let laterClaimed = false;
  const unmatched: MatchSlot[] = [];
  for (let i = slots.length - 1; i >= 0; i -= 1) {
    const slot = slots[i]!;
    if (claimed.has(slot.key)) laterClaimed = true;
    else if (laterClaimed || options.settled) unmatched.push(slot);
  }
  // The claims' problems in the claims' order, then the slots' in finish order.
  const position = new Map(claims.map((c, i) => [c.id, i]));
  problems.sort(
    (x, y) => position.get((x as { claim: Claim }).claim.id)! - position.get((y as { claim: Claim }).claim.id)!,
  );
  for (const slot of unmatched.reverse()) problems.push({ kind: "slot-unmatched", slot });
  return { pairs, claims, problems };
}
