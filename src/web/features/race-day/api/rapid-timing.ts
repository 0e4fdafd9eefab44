/**
 * Rapid timing's calls (issue 26; docs/race-day.md, "Times first, bibs later"), all under /admin/api/races/ and each one
 * audited change on the race object:
 * - POST rapid/{race}?tap&at&err&device: one 'Mål!' (sent by the tap queue, never awaited by a click);
 * - POST bibs/{race} {entry, bib}: a bib typed in finish order (sent by the tap queue); …/{entry}/change {bib};
 *   …/{entry}/remove;
 * - POST slots/{race}/{tap}/assign {bib} or {sort}; …/discard: one slot by hand;
 * - POST main-timer/{race} {mainTimer}; POST official/{race} {confirm?}.
 * Each id (tap, entry) is made on the phone, so a call sent again changes nothing.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  BibAnswer,
  BibEntryResult,
  OfficialResult,
  RaceRecordAnswer,
  RapidAnswer,
  SlotResult,
} from "../../../../shared/race-answers";
import type { BibEntryRecord, RaceEvent, RetimeConfirm, SlotRecord, WithSeq } from "../../../../shared/race-protocol";
import type {
  BibChangeBody,
  BibEntryBody,
  DecisionBody,
  MainTimerBody,
  OfficialBody,
  SlotAction,
} from "../../../../shared/race-requests";
import { api } from "../../../lib/api";
import { applyRapid, EMPTY_RAPID, isStaleAnswer, seqOf, type RapidRecords } from "../apply-race-events";
import { cacheRace, cacheRunner, liveSeq } from "../race-cache";
import type { BibEntryItem, RapidItem } from "../tap-queue";
import { raceDayUrl, SEND_TIMEOUT_MS } from "./race-day-url";

/** The race socket's rapid records for one race (its hello snapshot, then each change); nothing is fetched. */
export const rapidQueryOptions = (raceId: string) =>
  queryOptions<RapidRecords>({
    queryKey: ["admin", "race-rapid", raceId],
    queryFn: () => EMPTY_RAPID,
    staleTime: Infinity,
  });

/** The taps and typed bibs, without Målfoto's records. */
export type RapidTiming = Pick<RapidRecords, "slots" | "bibs">;

const timingOnly = (rapid: RapidRecords): RapidTiming => ({ slots: rapid.slots, bibs: rapid.bibs });

/**
 * The race's taps and typed bibs. A Målfoto record (three a press with the camera on) leaves them as they were, and
 * the selection is shared structurally: the component is not rendered again for it (finish-photos.tsx's hooks
 * read the photos where they are shown).
 */
export function useRapidTiming(raceId: string): RapidTiming {
  return useRapidPart(raceId, timingOnly) ?? EMPTY_RAPID;
}

/**
 * Part of the race's rapid records, chosen by `select` (a stable function): the component renders again only when
 * the chosen part changes (structural sharing).
 */
export function useRapidPart<T>(raceId: string, select: (rapid: RapidRecords) => T): T | undefined {
  return useQuery({ ...rapidQueryOptions(raceId), select, refetchOnWindowFocus: false, refetchOnReconnect: false })
    .data;
}

/** A tap or typed bib from a call's answer, unless the socket already brought a newer state of it. */
export function cacheRapidRecord(
  queryClient: QueryClient,
  raceId: string,
  record: WithSeq<SlotRecord> | WithSeq<BibEntryRecord>,
): void {
  const seq = seqOf(record);
  if (seq === undefined) return;
  queryClient.setQueryData(rapidQueryOptions(raceId).queryKey, (current) => {
    const rapid = current ?? EMPTY_RAPID;
    const list: readonly { sort: string; seq?: number }[] = record.type === "slot" ? rapid.slots : rapid.bibs;
    const cached = list.find((r) => r.sort === record.sort);
    if (isStaleAnswer(seqOf(cached), seq, liveSeq(queryClient, raceId))) return rapid;
    return applyRapid(rapid, { ...record, seq } as RaceEvent);
  });
}

export function rapidTap(raceId: string, { tap, at, device, err }: RapidItem): Promise<RapidAnswer> {
  return api<RapidAnswer>(raceDayUrl(["rapid", raceId], { tap, at, err, device }), {
    method: "POST",
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

function settleBib(queryClient: QueryClient, raceId: string, answer: BibEntryResult): void {
  cacheRapidRecord(queryClient, raceId, answer.entry);
  if (answer.runner) cacheRunner(queryClient, raceId, answer.runner);
}

/**
 * 'Startnummer i målordning': one typed bib, sent by the tap queue (kind 'bib-entry') with the entry id the
 * phone made for it, the device that typed it and when it was typed (a bib typed before the race's start goes to
 * the review list: 202 with the item, which the queue drops like a tap's).
 */
export function enterBib(raceId: string, { tap, bib, device, at }: BibEntryItem): Promise<BibAnswer> {
  return api<BibAnswer>(raceDayUrl(["bibs", raceId], { device }), {
    method: "POST",
    json: { entry: tap, bib: String(bib), at: Math.round(at) } satisfies BibEntryBody,
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

/**
 * A typed bib corrected in its place (a suggestion taken), or taken out of the order; `confirm`: the organiser's
 * yes to the runners it re-times (retime.ts).
 */
export function useChangeBib(raceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entry, bib, confirm }: { entry: string; bib: number | null; confirm?: RetimeConfirm[] }) => {
      const decision: DecisionBody = confirm ? { confirm } : {};
      return bib === null
        ? api<BibEntryResult>(raceDayUrl(["bibs", raceId, entry, "remove"]), { method: "POST", json: decision })
        : api<BibEntryResult>(raceDayUrl(["bibs", raceId, entry, "change"]), {
            method: "POST",
            json: { bib, ...decision } satisfies BibChangeBody,
          });
    },
    onSuccess: (answer) => settleBib(queryClient, raceId, answer),
  });
}

/** One slot by hand: this runner (a bib typed, or a tile tapped), or out as a stray tap. */
export function useSlotAction(raceId: string) {
  return useMutation({
    mutationFn: (action: SlotAction) => {
      // Målfoto: decided with the slot's finish photo open (the log says so).
      const confirm: DecisionBody = {
        ...(action.confirm ? { confirm: action.confirm } : {}),
        ...(action.photo ? { photo: true } : {}),
      };
      return "discard" in action
        ? api<SlotResult>(raceDayUrl(["slots", raceId, action.tap, "discard"]), { method: "POST", json: confirm })
        : api<SlotResult>(raceDayUrl(["slots", raceId, action.tap, "assign"]), {
            method: "POST",
            json: "bib" in action ? { bib: action.bib, ...confirm } : { sort: action.sort, ...confirm },
          });
    },
  });
}

export function useMainTimer(raceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mainTimer: string | null) =>
      api<RaceRecordAnswer>(raceDayUrl(["main-timer", raceId]), {
        method: "POST",
        json: { mainTimer } satisfies MainTimerBody,
      }),
    onSuccess: ({ race }) => cacheRace(queryClient, race),
  });
}

/** 'Officiella': once, on an ended race; past open review items only with `confirm`. */
export function useMarkOfficial(raceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirm: boolean) =>
      api<OfficialResult>(raceDayUrl(["official", raceId]), {
        method: "POST",
        json: (confirm ? { confirm } : {}) satisfies OfficialBody,
      }),
    onSuccess: ({ race }) => cacheRace(queryClient, race),
  });
}
