/**
 * The bib desk on the race screen: how many runners still waiting have not picked up their bib ('ej hämtad' on
 * their tiles too), and after the start 'Markera ej hämtade som DNS', one action confirmed by typing DNS (audited
 * by the race object; each mark is taken back per runner from the tile's menu). Nothing of this is public.
 */
import { useState, type FormEvent } from "react";
import { DNS_NOT_PICKED_UP_WORD } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import { messageOf } from "./race-alerts";
import { useMarkNotPickedUpDns } from "./api/dns-not-picked-up";
import { isWaiting, type RaceView, type RunnerView } from "./race-view";

/** A waiting runner who has not been to the bib desk. */
export function notPickedUp(r: Pick<RunnerView, "finished" | "dns" | "pickedUpAt">): boolean {
  return isWaiting(r) && r.pickedUpAt === undefined;
}

export interface PickupMarksProps {
  raceId: string;
  race: RaceView;
  runners: readonly RunnerView[];
  onDone: (message: string) => void;
}

export function PickupMarks({ raceId, race, runners, onDone }: PickupMarksProps) {
  const [open, setOpen] = useState(false);
  const [word, setWord] = useState("");
  const [error, setError] = useState<string | null>(null);
  const mark = useMarkNotPickedUpDns(raceId);
  const missing = runners.filter(notPickedUp).length;
  // An open dialog stays while another phone's confirmation marks the last of them: its own press then hears that
  // nobody was left, instead of the dialog vanishing under the volunteer's finger.
  if ((missing === 0 && !open) || race.state === "ended") return null;

  function confirm(e: FormEvent) {
    e.preventDefault();
    setError(null);
    mark.mutate(
      { raceId, confirm: word.trim() },
      {
        onSuccess: ({ marked }) => {
          setOpen(false);
          setWord("");
          // Two phones pressing at once: the race object marks them once, and the later press finds nobody left.
          onDone(
            marked.length === 0
              ? "Ingen löpare kvar att markera: de är redan markerade eller har hämtat."
              : `${marked.length} löpare markerade som DNS. Ångra per löpare i löparens meny.`,
          );
        },
        onError: (err) => setError(messageOf(err)),
      },
    );
  }

  return (
    <div className="pickup-marks">
      <p className="pickup-missing">
        Ej hämtat nummerlapp: <strong>{missing}</strong>
      </p>
      {race.state === "started" && !race.pendingStart && (
        <Button onClick={() => setOpen(true)}>Markera ej hämtade som DNS ({missing})</Button>
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title="Markera ej hämtade som DNS">
          <form className="pickup-dns-form" onSubmit={confirm}>
            <p>
              {missing} löpare har inte hämtat sin nummerlapp och har inte gått i mål. De markeras som DNS (ej start).
              Skriv {DNS_NOT_PICKED_UP_WORD} för att bekräfta.
            </p>
            <Field label={`Skriv ${DNS_NOT_PICKED_UP_WORD}`} error={error}>
              {(control) => (
                <input
                  {...control}
                  autoComplete="off"
                  autoCapitalize="characters"
                  value={word}
                  onChange={(e) => setWord(e.target.value)}
                />
              )}
            </Field>
            <Button type="submit" variant="primary" loading={mark.isPending} disabled={word.trim() === ""}>
              Markera som DNS
            </Button>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
