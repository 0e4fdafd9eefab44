/**
 * 'Att granska' (shared/race-protocol.ts ReviewRecord): a tap the race could not take as it was is kept here,
 * with who, which device, when and why, until an admin applies it (with its original moment) or discards it
 * (review.ts). Both are audited; an item is never deleted. Its id is the tap's id, so a replayed tap finds its
 * item again.
 */
import { RaceError, type ReviewKind } from "../../../shared/race-protocol";
import type { SentToReview } from "../../../shared/race-answers";
import { reviewRecord } from "../records";
import type { ReviewRow, RunnerRow } from "../storage";
import { decided, type Decision, type RuleContext } from "./decision";

export interface ReviewInput {
  id: string;
  kind: ReviewKind;
  reason: string;
  at: number;
  runnerId?: string;
  runner?: RunnerRow | null;
  /** A start item: the race's start when it was made. */
  started?: number | null;
  /** A typed bib's item ('bib-early'): the bib, when no runner of the race has it. */
  bib?: number;
}

/** Puts a tap on the list (once: a replay of the same tap answers the item it made). */
export function sendToReview({ store, now, by }: RuleContext, input: ReviewInput): Decision<SentToReview> {
  const meta = store.requireMeta();
  const existing = store.review(input.id);
  if (existing) return decided({ outcome: "review", review: reviewRecord(existing, meta) });
  const runner = input.runner ?? null;
  store.write("review-added", { id: input.id, kind: input.kind, reason: input.reason, at: input.at }, by, (seq) => {
    store.sql(
      `INSERT INTO review (id, kind, status, reason, at, runner_id, bib, name, started, actor, device, created_at, seq)
       VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      input.id,
      input.kind,
      input.reason,
      input.at,
      input.runnerId ?? null,
      runner?.bib ?? input.bib ?? null,
      runner ? `${runner.firstname} ${runner.lastname}` : null,
      input.kind === "start" ? (input.started ?? null) : null,
      (by.actor ?? "system").slice(0, 200),
      by.device?.slice(0, 200) ?? null,
      now,
      seq,
    );
  });
  return decided({ outcome: "review", review: reviewRecord(store.review(input.id)!, meta) }, { reviews: [input.id] });
}

export function openItem({ store }: RuleContext, id: string): ReviewRow {
  const item = typeof id === "string" ? store.review(id) : null;
  if (!item) throw new RaceError(404, "Det finns inget sådant att granska.");
  if (item.status !== "open") {
    const why =
      item.status === "applied"
        ? "Den är redan använd."
        : item.status === "discarded"
          ? "Den är redan kastad."
          : "Den är redan avgjord.";
    throw new RaceError(409, why);
  }
  return item;
}

export function close({ store, now, by }: RuleContext, id: string, status: "applied" | "discarded", seq: number): void {
  store.sql(
    "UPDATE review SET status = ?, decided_by = ?, decided_at = ?, seq = ? WHERE id = ?",
    status,
    (by.actor ?? "system").slice(0, 200),
    now,
    seq,
    id,
  );
}
