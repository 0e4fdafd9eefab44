/**
 * One slot by hand (rapid-panel.tsx's slot list): give it a runner ('Ge tiden': a bib typed, or a waiting runner's
 * tile) or drop it as a stray tap ('Kasta tiden'). Two phones assigning one slot at once: the race takes the first,
 * the second gets its Swedish 409. A slot whose key changes while its dialog is open (another phone's tap merged
 * into it) closes the dialog.
 *
 * Bibs typed in finish order pair with the slots by position, so giving a slot a typed bib already reaches to
 * someone else pushes every later typed bib one slot on (issue 37). When the slot has a typed bib, the dialog first
 * offers to correct that bib in its place ('Rätta nr 702 till 705': nobody else's time changes) and says what the
 * other choice does; 'Ge tiden ändå', like 'Kasta tiden', shows who else would get a new time and needs the
 * organiser's yes (retime-dialog.tsx).
 */
import { useState, type FormEvent } from "react";
import type { RetimeConfirm } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import type { SlotAction } from "../../../shared/race-requests";
import { useChangeBib, useSlotAction } from "./api/rapid-timing";
import { messageOf } from "./race-alerts";
import { bibText, fullName, isWaiting, type RunnerView } from "./race-view";
import { slotText, type SlotRow } from "./rapid-view";
import { RetimeDialog, useRetimeConfirmation } from "./retime-dialog";
import { TapPhotoStrip } from "./finish-photos";

/** Who the organiser chose for the slot: a bib typed, or a runner's tile (with the runner's bib, if any). */
type Choice = { bib: string; label: string } | { sort: string; bib: number | null; label: string };

export function SlotDialog({
  raceId,
  row,
  started,
  runners,
  onClose,
  onError,
  photoTaps = [],
}: {
  raceId: string;
  row: SlotRow | null;
  started: number | null;
  runners: readonly RunnerView[];
  onClose: () => void;
  onError: (message: string) => void;
  /** Målfoto: the slot's taps, whose photos it shows. */
  photoTaps?: readonly string[];
}) {
  const action = useSlotAction(raceId);
  const change = useChangeBib(raceId);
  const retime = useRetimeConfirmation();
  const [bib, setBib] = useState("");
  const [error, setError] = useState<string | null>(null);
  /** A choice waiting for 'correct the typed bib' or 'give the time anyway'. */
  const [choice, setChoice] = useState<Choice | null>(null);
  /** Målfoto: the organiser enlarged a photo of the slot (the decision then says it was made from the photo). */
  const [viewed, setViewed] = useState(false);
  const waiting = runners.filter(isWaiting);
  const close = () => {
    setBib("");
    setError(null);
    setChoice(null);
    setViewed(false);
    onClose();
  };

  /** The slot action; refused for a confirmation, the dialog gives way to the list of who else changes. */
  function send(chosen: SlotAction, inline: boolean) {
    const slotAction: SlotAction = viewed ? { ...chosen, photo: true } : chosen;
    action.mutate(slotAction, {
      onSuccess: close,
      onError: (err) => {
        const again = (confirm: RetimeConfirm[]) => action.mutateAsync({ ...slotAction, confirm });
        if (retime.ask(err, again)) close();
        else if (inline) setError(messageOf(err));
        else onError(messageOf(err));
      },
    });
  }

  function give(target: Choice) {
    if (!row) return;
    const typedBib = "sort" in target ? target.bib : Number(target.bib);
    // A typed bib other than the one chosen reaches this slot: offer to correct it in its place first.
    if (row.entry && typedBib !== null && row.entry.bib !== typedBib && choice === null) {
      setChoice(target);
      return;
    }
    send("sort" in target ? { tap: row.key, sort: target.sort } : { tap: row.key, bib: target.bib }, true);
  }

  function correct(entry: { id: string; bib: number }, to: number) {
    change.mutate(
      { entry: entry.id, bib: to },
      {
        onSuccess: close,
        onError: (err) => {
          const again = (confirm: RetimeConfirm[]) => change.mutateAsync({ entry: entry.id, bib: to, confirm });
          if (retime.ask(err, again)) close();
          else setError(messageOf(err));
        },
      },
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{1,5}$/.test(bib.trim())) {
      setError("Skriv ett startnummer med siffror.");
      return;
    }
    give({ bib: bib.trim(), label: `nr ${bib.trim()}` });
  }

  const typed = row?.entry ?? null;
  const correction = choice && typed ? ("sort" in choice ? choice.bib : Number(choice.bib)) : null;

  return (
    <>
      <Dialog open={row !== null} onOpenChange={(open) => !open && close()}>
        {row && choice && typed && correction !== null ? (
          <DialogContent
            title={slotText(row, started)}
            description={`Nr ${typed.bib} är inskrivet på den här tiden i målordningen.`}
          >
            <p>
              Rätta nr {typed.bib} till {correction}: ingen annans tid ändras. Ge tiden ändå till {choice.label}: nr{" "}
              {typed.bib} och numren efter det flyttas en tid framåt och får nya tider.
            </p>
            {error && (
              <p className="alert alert-error" role="alert">
                {error}
              </p>
            )}
            <div className="race-form-actions">
              <Button variant="primary" loading={change.isPending} onClick={() => correct(typed, correction)}>
                Rätta nr {typed.bib} till {correction}
              </Button>
              <Button loading={action.isPending} disabled={change.isPending} onClick={() => give(choice)}>
                Ge tiden ändå
              </Button>
              <Button variant="text" onClick={() => setChoice(null)}>
                Tillbaka
              </Button>
            </div>
          </DialogContent>
        ) : row ? (
          <DialogContent
            title={slotText(row, started)}
            description="Vem var det? Skriv startnumret eller tryck på löparen."
          >
            <TapPhotoStrip raceId={raceId} taps={photoTaps} onViewed={() => setViewed(true)} />
            <form className="race-form" onSubmit={submit} noValidate>
              <Field label="Startnummer" error={error}>
                {(control) => (
                  <input
                    {...control}
                    inputMode="numeric"
                    autoComplete="off"
                    value={bib}
                    onChange={(e) => {
                      setBib(e.target.value);
                      setError(null);
                    }}
                  />
                )}
              </Field>
              <div className="race-form-actions">
                <Button type="submit" variant="primary" loading={action.isPending}>
                  Ge tiden
                </Button>
                <Button disabled={action.isPending} onClick={() => send({ tap: row.key, discard: true }, false)}>
                  Kasta tiden
                </Button>
              </div>
            </form>
            {waiting.length > 0 && (
              <ul className="slot-runners" aria-label="Väntande löpare">
                {waiting.map((r) => (
                  <li key={r.sort}>
                    <Button
                      size="small"
                      disabled={action.isPending}
                      onClick={() => give({ sort: r.sort, bib: r.bib, label: `${bibText(r.bib)} ${fullName(r)}` })}
                    >
                      {bibText(r.bib)} {fullName(r)}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </DialogContent>
        ) : null}
      </Dialog>
      <RetimeDialog pending={retime.pending} onClose={retime.close} onError={onError} />
    </>
  );
}
