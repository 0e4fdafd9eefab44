/**
 * A runner's other actions, from a right-click, a long press or the tile's '⋯': the bib, 'did not start', and
 * 'Byt distans' (admin spec: a list of target races, then a confirmation answered exactly 'OK').
 */
import { useState, type FormEvent } from "react";
import { CHANGE_DISTANCE_WORD, type RaceRecord } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import { useChangeDistance } from "./api/change-distance";
import { useRaces } from "./api/get-races";
import { useSetDns } from "./api/set-dns";
import { messageOf } from "./race-alerts";
import { changeDistanceTargets } from "./race-hub";
import { fullName, type RunnerView } from "./race-view";

export interface RunnerMenuProps {
  race: RaceRecord;
  runner: RunnerView | null;
  onClose: () => void;
  onBib: (runner: RunnerView) => void;
}

export function RunnerMenu({ race, runner, onClose, onBib }: RunnerMenuProps) {
  return (
    <Dialog open={runner !== null} onOpenChange={(open) => !open && onClose()}>
      {runner && (
        <DialogContent title={fullName(runner)} className="runner-menu">
          <MenuSteps key={runner.sort} race={race} runner={runner} onClose={onClose} onBib={onBib} />
        </DialogContent>
      )}
    </Dialog>
  );
}

type Step = { kind: "actions" } | { kind: "targets" } | { kind: "confirm"; target: string };

function MenuSteps({ race, runner, onClose, onBib }: RunnerMenuProps & { runner: RunnerView }) {
  const [step, setStep] = useState<Step>({ kind: "actions" });
  const [error, setError] = useState<string | null>(null);
  const dns = useSetDns();
  const open = race.state !== "ended";

  if (step.kind === "targets") {
    return <TargetList race={race} onPick={(target) => setStep({ kind: "confirm", target })} />;
  }
  if (step.kind === "confirm") {
    return <ConfirmMove race={race} runner={runner} target={step.target} onDone={onClose} />;
  }
  return (
    <div className="menu-actions">
      {open && (
        <Button
          onClick={() => {
            onClose();
            onBib(runner);
          }}
        >
          Ange startnummer
        </Button>
      )}
      {open && runner.finished === null && (
        <Button
          loading={dns.isPending}
          onClick={() =>
            dns.mutate(
              { raceId: race.part, sort: runner.sort, dns: !runner.dns },
              { onSuccess: onClose, onError: (err) => setError(messageOf(err)) },
            )
          }
        >
          {runner.dns ? "Ta bort ej start" : "Markera ej start"}
        </Button>
      )}
      <Button onClick={() => setStep({ kind: "targets" })}>Byt distans</Button>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function TargetList({ race, onPick }: { race: RaceRecord; onPick: (target: string) => void }) {
  const races = useRaces();
  if (races.isPending) return <p role="status">Hämtar lopp …</p>;
  const targets = changeDistanceTargets(races.data, race);
  return (
    <nav aria-label="Flytta till lopp">
      <p className="muted">Välj loppet deltagaren ska flyttas till.</p>
      <ul className="menu-targets">
        {targets.map((part) => (
          <li key={part}>
            <Button onClick={() => onPick(part)}>{part}</Button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ConfirmMove({
  race,
  runner,
  target,
  onDone,
}: {
  race: RaceRecord;
  runner: RunnerView;
  target: string;
  onDone: () => void;
}) {
  const [answer, setAnswer] = useState("");
  const [error, setError] = useState<string | null>(null);
  const change = useChangeDistance();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (answer !== CHANGE_DISTANCE_WORD) {
      setError(`Skriv ${CHANGE_DISTANCE_WORD} för att flytta. Inget har ändrats.`);
      return;
    }
    change.mutate(
      { targetRaceId: target, raceId: race.part, sort: runner.sort },
      { onSuccess: onDone, onError: (err) => setError(messageOf(err)) },
    );
  }

  return (
    <form className="race-form" onSubmit={submit} noValidate>
      <p>
        Flytta {fullName(runner)} från {race.part} till <strong>{target}</strong>?
      </p>
      <Field label={`Skriv ${CHANGE_DISTANCE_WORD} för att bekräfta`} error={error}>
        {(control) => (
          <input
            {...control}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            value={answer}
            onChange={(e) => {
              setAnswer(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <Button type="submit" variant="primary" loading={change.isPending}>
        Flytta
      </Button>
    </form>
  );
}
