/**
 * The bib prompt (admin spec §5: "Ange startnummer för {name}" must yield a number, else nothing is sent), or the
 * next free number of the race's range in one press. A taken number answers 409 with whose it is.
 */
import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import { useRegisterBib } from "./api/register-bib";
import { parseBib } from "./race-forms";
import { messageOf } from "./race-alerts";
import { fullName, type RunnerView } from "./race-view";

export function BibDialog({
  raceId,
  runner,
  onClose,
}: {
  raceId: string;
  runner: RunnerView | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={runner !== null} onOpenChange={(open) => !open && onClose()}>
      {runner && (
        <DialogContent title={`Ange startnummer för ${fullName(runner)}`}>
          <BibForm key={runner.sort} raceId={raceId} runner={runner} onDone={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function BibForm({ raceId, runner, onDone }: { raceId: string; runner: RunnerView; onDone: () => void }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const register = useRegisterBib();

  function send(bib: number | "next") {
    setError(null);
    register.mutate(
      { raceId, sort: runner.sort, bib },
      { onSuccess: onDone, onError: (err) => setError(messageOf(err)) },
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const bib = parseBib(text);
    if (typeof bib !== "number") {
      setError("Ange startnumret som ett heltal.");
      return;
    }
    send(bib);
  }

  return (
    <form className="race-form" onSubmit={submit} noValidate>
      <Field label="Startnummer" error={error} hint={runner.bib !== null ? `Nu: ${runner.bib}` : undefined}>
        {(control) => (
          <input
            {...control}
            name="bib"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            autoFocus
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <div className="race-form-actions">
        <Button type="submit" variant="primary" loading={register.isPending && register.variables?.bib !== "next"}>
          Spara
        </Button>
        <Button
          loading={register.isPending && register.variables?.bib === "next"}
          disabled={register.isPending}
          onClick={() => send("next")}
        >
          Nästa lediga nummer
        </Button>
      </div>
    </form>
  );
}
