/**
 * The race's controls by state (admin spec, "Race screen"): not started → 'Starta' with the finished count;
 * started and nobody left running → 'Avsluta lopp'; otherwise the state, the clock and 'Återställ lopp'.
 * 'Starta' goes into the tap queue like a finish, so it counts at once, offline too, with the press's moment.
 * 'Återställ lopp' is an organiser's (issue 43): a volunteer's screen leaves it out.
 */
import { useEffect, useState, type FormEvent } from "react";
import { CLOCK_TICK_MS, RESET_WORD } from "../../../shared/race-protocol";
import { formatClock } from "../../../shared/time-format";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import { useAdminRole } from "../../lib/config/get-config";
import { STATE_LABEL, type RaceView } from "./race-view";

export interface RaceControlsProps {
  race: RaceView;
  finished: number;
  /** Nobody waiting here and every tap of this device sent: the server will accept the end. */
  canEnd: boolean;
  serverNow: () => number;
  busy: "end" | "reset" | null;
  onStart: () => void;
  onEnd: () => void;
  /** With the word typed; resolves to the server's message when the reset failed, null when done. */
  onReset: (word: string) => Promise<string | null>;
}

export function RaceControls({ race, finished, canEnd, serverNow, busy, onStart, onEnd, onReset }: RaceControlsProps) {
  const [resetOpen, setResetOpen] = useState(false);
  const mayReset = useAdminRole() === "organiser";

  if (race.state === "") {
    return (
      <div className="race-controls">
        <Button variant="primary" size="large" className="race-start" onClick={onStart}>
          Starta ({finished} i mål)
        </Button>
      </div>
    );
  }

  return (
    <div className="race-controls">
      <p className={`race-state state-${race.state}`}>
        {STATE_LABEL[race.state]}
        {race.pendingStart && <span className="pending-mark">ej skickad</span>}
      </p>
      {race.state === "started" && race.started !== null && <RaceClock started={race.started} serverNow={serverNow} />}
      {race.state === "started" && canEnd ? (
        <Button variant="primary" size="large" loading={busy === "end"} onClick={onEnd}>
          Avsluta lopp
        </Button>
      ) : (
        mayReset && <Button onClick={() => setResetOpen(true)}>Återställ lopp</Button>
      )}
      <ResetDialog
        open={resetOpen}
        onOpenChange={setResetOpen}
        busy={busy === "reset"}
        onConfirm={async (word) => {
          const failure = await onReset(word);
          if (failure === null) setResetOpen(false);
          return failure;
        }}
      />
    </div>
  );
}

/** Elapsed time on the server's clock, redrawn every CLOCK_TICK_MS (spec §9). */
function RaceClock({ started, serverNow }: { started: number; serverNow: () => number }) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, [serverNow]);
  return (
    <p className="race-clock" role="timer" aria-label="Tid sedan start">
      {formatClock(now - started)}
    </p>
  );
}

function ResetDialog({
  open,
  onOpenChange,
  busy,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  onConfirm: (word: string) => Promise<string | null>;
}) {
  const [word, setWord] = useState("");
  const [error, setError] = useState<string | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    // Spec: exactly the word; anything else sends nothing.
    if (word !== RESET_WORD) {
      setError(`Skriv ${RESET_WORD} för att återställa. Inget har ändrats.`);
      return;
    }
    void onConfirm(word).then(setError);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        setWord("");
        setError(null);
      }}
    >
      <DialogContent
        title="Återställ lopp"
        description="Starttid, måltider och ej start-markeringar raderas. Startnummer och deltagare finns kvar."
      >
        <form className="race-form" onSubmit={submit} noValidate>
          <Field label={`Skriv ${RESET_WORD} för att bekräfta`} error={error}>
            {(control) => (
              <input
                {...control}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                value={word}
                onChange={(e) => {
                  setWord(e.target.value);
                  setError(null);
                }}
              />
            )}
          </Field>
          <Button type="submit" variant="primary" loading={busy}>
            Återställ
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
