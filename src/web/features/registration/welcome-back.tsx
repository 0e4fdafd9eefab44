/** 'Välkommen tillbaka!': last season's runners of this address, each one tap away from this year's list. */
import { distanceLabel } from "../../../shared/distances";
import type { RunnerFields } from "../../../shared/registration-schema";
import { Button } from "../../components/ui/button";
import { formatAge } from "../../lib/format";

export function WelcomeBack({
  runners,
  busy,
  onAdd,
}: {
  runners: readonly RunnerFields[];
  busy: boolean;
  onAdd: (runner: RunnerFields) => void;
}) {
  if (runners.length === 0) return null;
  return (
    <section className="welcome-back" aria-labelledby="welcome-back-title">
      <h3 id="welcome-back-title">Välkommen tillbaka!</h3>
      <p>Förra gången sprang de här med oss. Vill du anmäla dem igen? Åldern är redan uppräknad.</p>
      <ul className="welcome-back-list">
        {runners.map((r) => {
          const name = `${r.firstname} ${r.lastname}`;
          return (
            <li key={`${r.firstname}\u0000${r.lastname}`}>
              <span className="welcome-back-name">
                {name}
                <small>
                  {formatAge(r.age)} · {distanceLabel(r.distance)}
                </small>
              </span>
              <Button size="small" disabled={busy} onClick={() => onAdd(r)} aria-label={`Lägg till ${name}`}>
                Lägg till
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
