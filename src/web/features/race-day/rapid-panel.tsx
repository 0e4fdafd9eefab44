/**
 * Rapid timing on the race screen (issue 26). Two modes beside the runner tiles:
 * - 'Mål!': one full-width button at the bottom of the screen, for a thumb. Each press is a finish moment without a
 *   runner, put in the same tap queue as finish taps (kind 'rapid'), so it counts at once, offline too, and is sent
 *   when the network lets it; its tap id makes a resend harmless. The slots ('#1 12:03.4 – ?') are the same on
 *   every phone: each computes them from every device's taps as the race object does (rapid-view.ts).
 * - 'Startnummer i målordning': a numeric keypad; each bib typed ('OK') goes into the same tap queue (kind
 *   'bib-entry', its entry id made here), shown in the list as 'ej skickad' until the server has it, and kept
 *   through a reload or a dropped tab. The race matches each bib with the next slot, in the order bibs reach it:
 *   the queue sends them in the order typed, after the 'Mål!' taps made before them (tap-queue.ts).
 * A slot tapped opens a dialog to give it a runner or drop it (slot-dialog.tsx).
 * Two phones typing bibs at once: the race takes them in the order they arrive (finish order is one phone's job);
 * a bib sent twice (a retry after a lost answer, two tabs sending one queue) is one entry. Two tabs pressing
 * 'Mål!' or typing bibs: the tap queue's own rules (one stored queue, one sender at a time).
 */
import { useState } from "react";
import type { RaceRecord, RetimeConfirm } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { useMainTimer, useChangeBib } from "./api/rapid-timing";
import { RetimeDialog, useRetimeConfirmation } from "./retime-dialog";
import { messageOf } from "./race-alerts";
import { liveBibs, slotText, unsentBibs, type SlotRow } from "./rapid-view";
import type { RapidRecords } from "./apply-race-events";
import { typedBibNumber, type QueueItem } from "./tap-queue";

export type TimingMode = "tiles" | "rapid" | "bibs";

export const MODE_LABEL: Record<TimingMode, string> = {
  tiles: "Löpare",
  rapid: "Mål!",
  bibs: "Startnummer",
};

export function ModeSwitch({ mode, onChange }: { mode: TimingMode; onChange: (mode: TimingMode) => void }) {
  return (
    <div className="timing-modes" role="group" aria-label="Tidtagningsläge">
      {(Object.keys(MODE_LABEL) as TimingMode[]).map((m) => (
        <Button
          key={m}
          size="small"
          variant={m === mode ? "primary" : "outlined"}
          aria-pressed={m === mode}
          onClick={() => onChange(m)}
        >
          {MODE_LABEL[m]}
        </Button>
      ))}
    </div>
  );
}

export interface SlotListProps {
  rows: readonly SlotRow[];
  started: number | null;
  deviceLabel: (device: string) => string;
  /** Several devices timed: each slot says which. */
  showDevices: boolean;
  onSlot?: ((row: SlotRow) => void) | undefined;
}

/** The merged slots, the latest first (the one just timed is at the top, next to the thumb's last press). */
export function SlotList({ rows, started, deviceLabel, showDevices, onSlot }: SlotListProps) {
  if (rows.length === 0) return <p className="muted">Inga måltider än.</p>;
  return (
    <ol className="slot-list" aria-label="Måltider">
      {[...rows].reverse().map((row) => {
        const text = slotText(row, started);
        const notes = [
          row.pending && "ej skickad",
          row.single && "bara en telefon",
          showDevices && row.devices.map(deviceLabel).join(" + "),
        ].filter(Boolean);
        return (
          <li
            key={row.key}
            className={`slot-row${row.runner ? " slot-paired" : ""}${row.single ? " slot-single" : ""}`}
          >
            <button
              type="button"
              className="slot-button"
              disabled={!onSlot || row.pending}
              onClick={() => onSlot?.(row)}
            >
              <span className="slot-text">{text}</span>
              {notes.length > 0 && <span className="slot-note">{notes.join(" · ")}</span>}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The big 'Mål!' button, fixed at the bottom of the screen. */
export function FinishButton({ count, onPress }: { count: number; onPress: (pressedAt: number) => void }) {
  return (
    <div className="rapid-bar">
      <button
        type="button"
        className="rapid-button"
        // Pointer down, not click: the moment of the press is the finish, not the release.
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.preventDefault();
          // The event's own moment (performance clock): Målfoto keeps the frame nearest it.
          onPress(e.timeStamp);
        }}
        // A click without a pointer press before it (the keyboard, a screen reader's activation) is a press too.
        onClick={(e) => {
          if (e.detail === 0) onPress(e.timeStamp);
        }}
        aria-label={`Mål! (${count} tider)`}
      >
        Mål!
      </button>
    </div>
  );
}

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"] as const;

/**
 * 'Startnummer i målordning': a keypad, the bibs typed so far and the slot each one reached. 'OK' hands the bib
 * to the tap queue (`onEnter`) and clears the display at once; the bibs not yet sent follow the server's in the
 * list, in the order typed, as 'ej skickad' (with the server's words when it refused one). 'Ta bort' on one takes
 * it out of the queue; if its send was already on the way, the race has it and it comes back as the server's,
 * where 'Ta bort' takes it out of the finish order.
 */
export function BibKeypad({
  raceId,
  rapid,
  rows,
  started,
  queued,
  onEnter,
  onTakeOut,
  onError,
}: {
  raceId: string;
  rapid: RapidRecords;
  rows: readonly SlotRow[];
  started: number | null;
  /** This phone's queue (its 'bib-entry' items are the bibs not sent yet). */
  queued: readonly QueueItem[];
  onEnter: (bib: number) => void;
  /** An unsent bib taken out of the queue by the volunteer. */
  onTakeOut: (entry: string) => void;
  onError: (message: string) => void;
}) {
  const change = useChangeBib(raceId);
  const retime = useRetimeConfirmation();
  const [digits, setDigits] = useState("");
  const entries = liveBibs(rapid);
  const unsent = unsentBibs(rapid, queued);
  const slotOf = new Map(rows.filter((r) => r.runner).map((r) => [r.runner!.bib, r]));

  function key(k: (typeof KEYS)[number]) {
    if (k === "⌫") return setDigits((d) => d.slice(0, -1));
    if (k !== "OK") return setDigits((d) => (d.length >= 5 ? d : d + k));
    if (digits === "") return;
    const bib = typedBibNumber(digits);
    if (bib === null) return onError("Startnummer måste vara ett heltal från 1 till 99999.");
    onEnter(bib);
    setDigits("");
  }

  return (
    <section className="bib-entry" aria-labelledby="bib-entry-title">
      <h3 id="bib-entry-title">Startnummer i målordning</h3>
      <p className="bib-display" role="status" aria-label="Inskrivet startnummer">
        {digits || "–"}
      </p>
      <div className="keypad">
        {KEYS.map((k) => (
          <button
            key={k}
            type="button"
            className={`key${k === "OK" ? " key-ok" : ""}`}
            aria-label={k === "⌫" ? "Radera" : k === "OK" ? "OK, skicka startnumret" : k}
            onClick={() => key(k)}
          >
            {k}
          </button>
        ))}
      </div>
      {entries.length + unsent.length > 0 && (
        <ol className="bib-entries" aria-label="Inskrivna startnummer">
          {entries.map((e, i) => {
            const row = slotOf.get(e.bib);
            return (
              <li key={e.id} className="bib-entry-row">
                <span>
                  {i + 1}. Nr {e.bib}
                  {e.typed !== undefined && ` (skrevs ${e.typed})`}
                  {row ? ` → ${slotText(row, started)}` : " → ingen tid än"}
                </span>
                <Button
                  size="small"
                  variant="text"
                  aria-label={`Ta bort nr ${e.bib} ur målordningen`}
                  disabled={change.isPending}
                  onClick={() =>
                    change.mutate(
                      { entry: e.id, bib: null },
                      {
                        onError: (err) => {
                          // Removing a bib moves the ones after it: shown and confirmed first (retime-dialog.tsx).
                          const again = (confirm: RetimeConfirm[]) =>
                            change.mutateAsync({ entry: e.id, bib: null, confirm });
                          if (!retime.ask(err, again)) onError(messageOf(err));
                        },
                      },
                    )
                  }
                >
                  Ta bort
                </Button>
              </li>
            );
          })}
          {unsent.map((item, i) => (
            <li key={item.tap} className="bib-entry-row bib-entry-unsent">
              <span>
                {entries.length + i + 1}. Nr {item.bib} → ej skickad
                {item.refused && `: ${item.refused.message}`}
              </span>
              <Button
                size="small"
                variant="text"
                aria-label={`Ta bort nr ${item.bib} ur målordningen`}
                onClick={() => onTakeOut(item.tap)}
              >
                Ta bort
              </Button>
            </li>
          ))}
        </ol>
      )}
      <RetimeDialog pending={retime.pending} onClose={retime.close} onError={onError} />
    </section>
  );
}

/** Two timers: which phone's times a finish both timed takes (the organiser's main timer, else the earliest). */
export function MainTimerChoice({
  raceId,
  race,
  devices,
  deviceLabel,
  onError,
}: {
  raceId: string;
  race: RaceRecord;
  devices: readonly string[];
  deviceLabel: (device: string) => string;
  onError: (message: string) => void;
}) {
  const set = useMainTimer(raceId);
  if (devices.length < 2) return null;
  const choose = (device: string | null) => set.mutate(device, { onError: (err) => onError(messageOf(err)) });
  return (
    <div className="main-timer" role="group" aria-label="Huvudtidtagare">
      <p className="muted">
        Huvudtidtagare: {race.mainTimer ? deviceLabel(race.mainTimer) : "tidigaste trycket gäller"}
      </p>
      {devices.map((d) => (
        <Button
          key={d}
          size="small"
          variant={race.mainTimer === d ? "primary" : "outlined"}
          aria-pressed={race.mainTimer === d}
          disabled={set.isPending}
          onClick={() => choose(race.mainTimer === d ? null : d)}
        >
          {deviceLabel(d)}
        </Button>
      ))}
    </div>
  );
}
