/**
 * 'Lägg till löpare' / edit: the runner form in the Radix dialog. Validation runs on submit only (spec §5), with
 * the same rules the server applies (src/shared/registration-schema.ts, shared/companion.ts), so what the form
 * accepts is saved. 'Springer med barn (ej tävlande)' is offered to an adult on a distance a child of the family
 * runs (and stays shown, to be unticked, on a runner that has it). A child whose new distance would leave the adults
 * running with it behind offers to move them along, ticked (issue 39: they change together in one save, paid or
 * not).
 */
import { useId, useState, type FormEvent } from "react";
import { ageFromInput, isAdult } from "../../../shared/age";
import { childDistances, COMPANION_LABEL, companionError, type CompanionCandidate } from "../../../shared/companion";
import { distanceLabel, GROUPS, type Group } from "../../../shared/distances";
import { checkRunner, type RunnerErrors, type RunnerFields } from "../../../shared/registration-schema";
import { SEASON, type DistanceKm } from "../../../shared/season";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Field } from "../../components/ui/field";
import type { ConfigDistance } from "../../lib/config/get-config";
import { useServerClock } from "../../lib/config/server-clock";
import { inSpecOrder } from "../../lib/format";
import { MoveAlong, type Follower } from "./move-along";

export interface RunnerDraft {
  firstname: string;
  lastname: string;
  age: string;
  company: string;
  distance: DistanceKm | "";
  group: Group;
  /** 'Springer med barn (ej tävlande)' (shared/companion.ts). */
  companion: boolean;
}

export const EMPTY_DRAFT: RunnerDraft = {
  firstname: "",
  lastname: "",
  age: "",
  company: "",
  distance: "",
  group: "Ingen",
  companion: false,
};

export function draftOf(r: RunnerFields): RunnerDraft {
  return { ...r, age: String(r.age), companion: r.companion === true };
}

export interface RunnerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Editing an existing runner (then 'Ta bort' and 'Spara'), else a new one ('Lägg till'). */
  editing: boolean;
  /** A paid runner: what to tell about editing it; it has no 'Ta bort' (a paid runner is not removed here). */
  paidNote?: string;
  initial: RunnerDraft;
  distances: readonly ConfigDistance[];
  /** The family's other runners (not the one in the form): whose children a companion runs with. */
  family: readonly CompanionCandidate[];
  /** The companions that run with this runner alone (no other child on its distance): they follow a move. */
  followers?: readonly Follower[];
  /** What to tell about a companion a refund left without a child. */
  note?: string;
  adultAge: number;
  companionPrice: number;
  /**
   * Saves, with the followers to move to the runner's new distance; resolves to an error message to show, or null
   * when saved (the dialog then closes).
   */
  onSave: (runner: RunnerFields, moveAlong: readonly string[]) => Promise<string | null>;
  onDelete: () => Promise<string | null>;
}

export function RunnerDialog(props: RunnerDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent title={props.editing ? "Ändra löpare" : "Lägg till löpare"} className="runner-dialog">
        {/* Keyed form: every opening starts from the runner it was opened for. */}
        {props.open && <RunnerForm {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function RunnerForm({
  editing,
  paidNote,
  note,
  initial,
  distances,
  family,
  followers = [],
  adultAge,
  companionPrice,
  onSave,
  onDelete,
  onOpenChange,
}: RunnerDialogProps) {
  const clock = useServerClock();
  const nameErrorId = useId();
  const [draft, setDraft] = useState<RunnerDraft>(initial);
  const [errors, setErrors] = useState<RunnerErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "delete" | null>(null);
  // The followers the family unticked ('Flytta också …' is ticked by default).
  const [leftBehind, setLeftBehind] = useState<ReadonlySet<string>>(new Set());

  function set<K extends keyof RunnerDraft>(key: K, value: RunnerDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setServerError(null);
  }

  async function run(kind: "save" | "delete", action: () => Promise<string | null>) {
    setBusy(kind);
    setServerError(null);
    const error = await action();
    setBusy(null);
    if (error) setServerError(error);
    else onOpenChange(false);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const season = { ...SEASON, adultAge };
    const checked = checkRunner(draft, clock.now(), season);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    const companion = companionError(checked.value, family, season);
    if (companion) {
      setErrors({ companion });
      return;
    }
    setErrors({});
    const along = moving ? followers.filter((f) => !leftBehind.has(f.id)).map((f) => f.id) : [];
    void run("save", () => onSave(checked.value, along));
  }

  const nameError = errors.firstname ?? errors.lastname;
  const ageNumber = /^\s*\d{4}\s*$/.test(draft.age) ? Number(draft.age) : null;
  const birthYearAge = ageNumber !== null && ageNumber > 1000 ? ageFromInput(ageNumber, clock.now()) : null;
  const typedAge = birthYearAge ?? (/^\s*\d{1,3}\s*$/.test(draft.age) ? Number(draft.age) : null);
  const children = childDistances(family, { ...SEASON, adultAge });
  // Offered to an adult (or an age not typed yet) when a child of the family runs; kept on a runner that has it.
  const offerCompanion =
    draft.companion || (children.size > 0 && (typedAge === null || isAdult(typedAge, { ...SEASON, adultAge })));
  const childText = [...children].map((d) => `${d.replace(".", ",")} km`).join(" eller ");
  // A child moving to another distance: the adults running with it alone can come along.
  const moving =
    followers.length > 0 &&
    !draft.companion &&
    draft.distance !== "" &&
    draft.distance !== initial.distance &&
    (typedAge === null || !isAdult(typedAge, { ...SEASON, adultAge }));

  return (
    <form className="runner-form" onSubmit={submit} noValidate>
      {paidNote && <p className="alert alert-info runner-dialog-note">{paidNote}</p>}
      {note && <p className="alert alert-warning runner-dialog-note">{note}</p>}
      <div className="field-row">
        <Field label="Förnamn">
          {(control) => (
            <input
              {...control}
              name="firstname"
              autoComplete="off"
              autoCapitalize="words"
              value={draft.firstname}
              aria-invalid={errors.firstname ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              onChange={(e) => set("firstname", e.target.value)}
            />
          )}
        </Field>
        <Field label="Efternamn">
          {(control) => (
            <input
              {...control}
              name="lastname"
              autoComplete="off"
              autoCapitalize="words"
              value={draft.lastname}
              aria-invalid={errors.lastname ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              onChange={(e) => set("lastname", e.target.value)}
            />
          )}
        </Field>
      </div>
      {/* One message under both name fields: spec §5 has a single 'Ange namn' for either missing. */}
      {nameError && (
        <p className="field-error" id={nameErrorId}>
          {nameError}
        </p>
      )}

      <Field
        label="Ålder"
        error={errors.age}
        hint={
          birthYearAge !== null && birthYearAge >= 0
            ? `Födelseår ${ageNumber}: ${birthYearAge} år`
            : "Ålder i år, eller födelseår (t.ex. 2015)"
        }
      >
        {(control) => (
          <input
            {...control}
            name="age"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            maxLength={4}
            className="age-input"
            value={draft.age}
            onChange={(e) => set("age", e.target.value.replace(/\D/g, ""))}
          />
        )}
      </Field>

      <Field label="Klubb/företag" error={errors.company}>
        {(control) => (
          <input
            {...control}
            name="company"
            autoComplete="organization"
            value={draft.company}
            onChange={(e) => set("company", e.target.value)}
          />
        )}
      </Field>

      <fieldset className="field choice-group" aria-invalid={errors.distance ? true : undefined}>
        <legend className="field-label">Distans</legend>
        <div className="choices">
          {inSpecOrder(distances).map((d) => (
            <label key={d.distance} className="choice">
              <input
                type="radio"
                name="distance"
                value={d.distance}
                checked={draft.distance === d.distance}
                onChange={() => set("distance", d.distance)}
              />
              <span>
                {distanceLabel(d.distance)} <small>start {d.startTime}</small>
              </span>
            </label>
          ))}
        </div>
        {errors.distance && <p className="field-error">{errors.distance}</p>}
      </fieldset>

      {moving && draft.distance !== "" && (
        <MoveAlong
          followers={followers}
          distance={draft.distance}
          leftBehind={leftBehind}
          onToggle={(id) => {
            const next = new Set(leftBehind);
            if (!next.delete(id)) next.add(id);
            setLeftBehind(next);
            setServerError(null);
          }}
        />
      )}

      {offerCompanion && (
        <div className="field companion-choice">
          <label className="choice">
            <input
              type="checkbox"
              name="companion"
              checked={draft.companion}
              aria-invalid={errors.companion ? true : undefined}
              onChange={(e) => set("companion", e.target.checked)}
            />
            <span>
              {COMPANION_LABEL}
              <small>
                {" "}
                Springer med ett barn i anmälan{childText ? ` (${childText})` : ""} utan nummerlapp och tid. Kostar{" "}
                {companionPrice === 0 ? "inget" : `${companionPrice} kr`}.
              </small>
            </span>
          </label>
          {errors.companion && <p className="field-error">{errors.companion}</p>}
        </div>
      )}

      <fieldset className="field choice-group">
        <legend className="field-label">Grupp</legend>
        <div className="choices choices-inline">
          {GROUPS.map((g) => (
            <label key={g} className="choice">
              <input type="radio" name="group" value={g} checked={draft.group === g} onChange={() => set("group", g)} />
              <span>{g}</span>
            </label>
          ))}
        </div>
        {errors.group && <p className="field-error">{errors.group}</p>}
      </fieldset>

      {serverError && (
        <p className="alert alert-error" role="alert">
          {serverError}
        </p>
      )}

      <div className="dialog-actions">
        {editing && !paidNote && (
          <Button
            variant="text"
            className="danger"
            loading={busy === "delete"}
            disabled={busy !== null}
            onClick={() => void run("delete", onDelete)}
          >
            Ta bort
          </Button>
        )}
        <Button type="submit" variant="primary" loading={busy === "save"} disabled={busy !== null}>
          {editing ? "Spara" : "Lägg till"}
        </Button>
      </div>
    </form>
  );
}
