/**
 * An action on rapid timing or the review list that would give runners it does not name new times is refused by
 * the race with the list of them (src/durable/race/rules/retime.ts: 409 `{error, retimes}`, nothing changed). The
 * phone shows that list (who, old time, new time) and, when the organiser confirms, sends the same action again
 * with `confirm`; a list that changed meanwhile (another phone) comes back refused with the new one, shown again.
 */
import { runnerTime, type Retime, type RetimeConfirm } from "../../../shared/race-protocol";
import { ApiError } from "../../lib/api";

/** The runners a refused call lists for confirmation, or null when it was refused for another reason. */
export function retimesOf(err: unknown): Retime[] | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const retimes = err.answer?.retimes;
  return retimes && retimes.length > 0 ? retimes : null;
}

/** What the phone sends back once the organiser has confirmed the list. */
export function confirmationOf(retimes: readonly Retime[]): RetimeConfirm[] {
  return retimes.map((r) => ({ runnerId: r.runnerId, to: r.to }));
}

export interface RetimeRow {
  key: string;
  /** 'Nr 733 Ella Ek', or the name alone for a runner without a bib. */
  who: string;
  /** The time before and after ('04:12.300', or 'ingen tid'). */
  from: string;
  to: string;
}

export function retimeRows(retimes: readonly Retime[]): RetimeRow[] {
  const time = (started: number | null, finished: number | null) => runnerTime(started, finished) ?? "ingen tid";
  return retimes.map((r) => ({
    key: r.runnerId,
    who: [r.bib === null ? null : `Nr ${r.bib}`, r.name].filter(Boolean).join(" "),
    from: time(r.started, r.from),
    to: time(r.started, r.to),
  }));
}
