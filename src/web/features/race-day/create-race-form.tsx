/**
 * 'Lägg till lopp' (admin spec, "Race list" and §5): date, distance in metres and open for registration, checked
 * on submit; every error is listed and nothing is sent while any remain. The race id follows from date and
 * distance. After success the page reloads after 5 s (spec §4, §9).
 */
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useCreateRace } from "./api/create-race";
import { messageOf } from "./race-alerts";
import { checkRaceDraft, type RaceDraft } from "./race-forms";

const RELOAD_AFTER_MS = 5_000;

export function CreateRaceForm() {
  const [draft, setDraft] = useState<RaceDraft>({ date: "", distance: "", openForReg: false });
  const [errors, setErrors] = useState<string[]>([]);
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateRace();

  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);
    return () => clearTimeout(timer);
  }, [created]);

  function set<K extends keyof RaceDraft>(key: K, value: RaceDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors([]);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const { errors: found, race } = checkRaceDraft(draft);
    setErrors(found);
    if (!race) return;
    create.mutate(race, {
      onSuccess: () => setCreated(race.raceId),
      onError: (err) => setErrors([messageOf(err)]),
    });
  }

  return (
    <form className="race-form" onSubmit={submit} noValidate aria-label="Nytt lopp">
      <Field label="Datum" hint="ÅÅÅÅ-MM-DD">
        {(control) => (
          <input
            {...control}
            type="date"
            name="date"
            value={draft.date}
            onChange={(e) => set("date", e.target.value)}
          />
        )}
      </Field>
      <Field label="Distans (meter)" hint="I hela hundra meter, till exempel 2800">
        {(control) => (
          <input
            {...control}
            name="distance"
            inputMode="numeric"
            autoComplete="off"
            value={draft.distance}
            onChange={(e) => set("distance", e.target.value)}
          />
        )}
      </Field>
      <label className="check-field">
        <input type="checkbox" checked={draft.openForReg} onChange={(e) => set("openForReg", e.target.checked)} />
        Öppen för anmälan
      </label>
      {errors.length > 0 && (
        <ul className="alert alert-error form-errors" role="alert">
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {created && (
        <p className="alert alert-success" role="status">
          Loppet {created} är skapat. Sidan laddas om om 5 sekunder.
        </p>
      )}
      <Button type="submit" variant="primary" loading={create.isPending} disabled={created !== null}>
        Skapa lopp
      </Button>
    </form>
  );
}
