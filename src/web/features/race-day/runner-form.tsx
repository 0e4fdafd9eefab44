/**
 * The add and edit forms of the runner list (admin spec, "Runner list" and §5): first and last name, age, bib,
 * group and club. Only the age is checked here ('felaktig ålder'); the server's message shows when it refuses.
 */
import { useState, type FormEvent } from "react";
import type { RunnerRecord } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { useAddRunner } from "./api/add-runner";
import { useUpdateRunner } from "./api/update-runner";
import { messageOf } from "./race-alerts";
import { checkRunnerDraft, EMPTY_RUNNER, GROUPS, type RunnerDraft } from "./race-forms";

function draftOf(r: RunnerRecord): RunnerDraft {
  return {
    firstname: r.firstname,
    lastname: r.lastname,
    age: String(r.age),
    bib: r.bib === null ? "" : String(r.bib),
    group: r.group,
    company: r.company,
  };
}

/** `runner` given: the edit form of that runner; else a new runner. */
export function RunnerForm({ raceId, runner, onDone }: { raceId: string; runner?: RunnerRecord; onDone: () => void }) {
  const [draft, setDraft] = useState<RunnerDraft>(() => (runner ? draftOf(runner) : EMPTY_RUNNER));
  const [errors, setErrors] = useState<string[]>([]);
  const add = useAddRunner();
  const update = useUpdateRunner();
  const pending = add.isPending || update.isPending;

  function set<K extends keyof RunnerDraft>(key: K, value: RunnerDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors([]);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const { errors: found, body } = checkRunnerDraft(draft);
    setErrors(found);
    if (!body) return;
    const handlers = { onSuccess: onDone, onError: (err: unknown) => setErrors([messageOf(err)]) };
    if (runner) update.mutate({ raceId, sort: runner.sort, body }, handlers);
    else add.mutate({ raceId, body }, handlers);
  }

  const text = (key: "firstname" | "lastname" | "company", label: string, autoComplete: string) => (
    <Field label={label}>
      {(control) => (
        <input
          {...control}
          name={key}
          autoComplete={autoComplete}
          value={draft[key]}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form className="race-form" onSubmit={submit} noValidate>
      {text("firstname", "Förnamn", "off")}
      {text("lastname", "Efternamn", "off")}
      <div className="field-row">
        <Field label="Ålder">
          {(control) => (
            <input
              {...control}
              name="age"
              inputMode="numeric"
              autoComplete="off"
              value={draft.age}
              onChange={(e) => set("age", e.target.value)}
            />
          )}
        </Field>
        <Field label="Startnummer" hint="Tomt: inget ännu">
          {(control) => (
            <input
              {...control}
              name="bib"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              value={draft.bib}
              onChange={(e) => set("bib", e.target.value.replace(/\D/g, ""))}
            />
          )}
        </Field>
      </div>
      <Field label="Grupp">
        {(control) => (
          <select {...control} name="group" value={draft.group} onChange={(e) => set("group", e.target.value)}>
            {GROUPS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        )}
      </Field>
      {text("company", "Förening", "off")}
      {errors.length > 0 && (
        <ul className="alert alert-error form-errors" role="alert">
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <Button type="submit" variant="primary" loading={pending}>
        {runner ? "Spara" : "Lägg till"}
      </Button>
    </form>
  );
}
