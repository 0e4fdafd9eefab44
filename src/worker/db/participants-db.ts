/**
 * The participants rows by id, shared by the resources that follow a payment's runners (payments, race-day,
 * registration, box office): data access only, below them all.
 */
import { inArray } from "drizzle-orm";
import type { Db } from "./client";
import { participants } from "./schema";

export type ParticipantRow = typeof participants.$inferSelect;

/** The runners a payment covers, in the order they were given (unknown ids are skipped). */
export async function participantsByIds(db: Db, ids: string[]): Promise<ParticipantRow[]> {
  if (ids.length === 0) return [];
  const rows: ParticipantRow[] = [];
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < ids.length; i += 90) {
    rows.push(
      ...(await db
        .select()
        .from(participants)
        .where(inArray(participants.id, ids.slice(i, i + 90)))
        .all()),
    );
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
