/**
 * The quick-registration form (spec §2 Box office, §3 payload, §4 form states): firstname, lastname, age,
 * distance, group, phone and bib, then how the fee is paid. Checked on submit only; 'Nästa' shows its loading
 * state while the server answers. The fee shown is the season's on-site price for the age typed.
 */
import { useState, type FormEvent } from "react";
import { COMPANION_LABEL } from "../../../../shared/companion";
import { distanceLabel } from "../../../../shared/distances";
import { SEASON } from "../../../../shared/season";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api";
import { useConfig } from "../../../lib/config/get-config";
import { formatKr } from "../../../lib/format";
import {
  BOX_OFFICE_DISTANCES,
  BOX_OFFICE_GROUPS,
  type QuickRegErrors,
  type QuickRegStarted,
} from "../../../../shared/box-office";
import { DigitsField, METHODS, RadioGroup, TextField } from "./form-fields";
import { useStartQuickReg } from "./api/start-quickreg";
import {
  checkQuickReg,
  EMPTY_RUNNER,
  type QuickRegDraft,
  type QuickRegField,
  type RunnerDraft,
} from "./quickreg-rules";

const FIELDS: readonly QuickRegField[] = [
  "firstname",
  "lastname",
  "age",
  "distance",
  "group",
  "phone",
  "bib",
  "method",
  "kampanj",
];

type FormErrors = QuickRegErrors & Record<string, string | undefined>;

function serverErrors(err: unknown): FormErrors {
  if (!(err instanceof ApiError)) return { _: "Något gick fel. Försök igen." };
  const out: FormErrors = {};
  const fields = err.errors;
  if (typeof fields === "object" && fields !== null) {
    for (const [key, message] of Object.entries(fields)) {
      const known = FIELDS.some((f) => f === key) || key.startsWith("runners.");
      if (known && typeof message === "string") out[key] ??= message;
    }
  }
  // A message that belongs to no field (Swish unreachable, an ended race) shows above the button.
  if (!Object.values(out).includes(err.message)) out._ = err.message;
  return out;
}

export interface QuickRegFormProps {
  draft: QuickRegDraft;
  onDraft: (draft: QuickRegDraft) => void;
  onStarted: (started: QuickRegStarted) => void;
}

export function QuickRegForm({ draft, onDraft, onStarted }: QuickRegFormProps) {
  const [errors, setErrors] = useState<FormErrors>({});
  const start = useStartQuickReg();
  const season = useConfig().data?.season;

  function set<K extends QuickRegField>(key: K, value: QuickRegDraft[K]) {
    onDraft({ ...draft, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined, _: undefined }));
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    // The first field in error gets the focus, so a keyboard or screen-reader user lands on what to fix.
    const show = (found: FormErrors) => {
      setErrors(found);
      const first =
        FIELDS.find((f) => found[f]) ?? Object.keys(found).find((k) => k.startsWith("runners.") && found[k]);
      if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    };
    const checked = checkQuickReg(draft);
    if (!checked.ok) {
      show(checked.errors);
      return;
    }
    setErrors({});
    start.mutate(checked.body, { onSuccess: onStarted, onError: (err) => show(serverErrors(err)) });
  }

  // Whole years only: a birth year is turned into an age by the server, which then prices it the same way.
  const priceOf = (ageText: string) => {
    const age = /^\d{1,3}$/.test(ageText.trim()) ? Number(ageText) : null;
    const adult = season && age !== null ? age >= season.adultAge : null;
    return season?.onSitePrice && adult !== null
      ? { adult, price: season.onSitePrice[adult ? "adult" : "child"] }
      : null;
  };
  const family = draft.extra.length > 0;
  const companionPrice = { adult: true, price: season?.companionPrice ?? SEASON.companionPrice };
  const first = family && draft.companion ? companionPrice : priceOf(draft.age);
  const adult = first?.adult ?? null;
  const prices = [first, ...draft.extra.map((r) => (r.companion ? companionPrice : priceOf(r.age)))];
  const price = prices.every((p) => p !== null) ? prices.reduce((sum, p) => sum + p!.price, 0) : null;

  const setExtra = (index: number, runner: RunnerDraft) => {
    onDraft({ ...draft, extra: draft.extra.map((r, i) => (i === index ? runner : r)) });
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(`runners.${index + 1}.`) && k !== "_")),
    );
  };

  return (
    <form className="quickreg-form" onSubmit={submit} noValidate aria-labelledby="quickreg-title">
      <h2 id="quickreg-title">Biljettkassan</h2>
      <p className="muted">Anmäl en löpare på plats. Löparen kommer med i loppet när avgiften är betald.</p>
      <div className="quickreg-row">
        <TextField
          label="Förnamn"
          name="firstname"
          error={errors.firstname}
          value={draft.firstname}
          onChange={(v) => set("firstname", v)}
        />
        <TextField
          label="Efternamn"
          name="lastname"
          error={errors.lastname}
          value={draft.lastname}
          onChange={(v) => set("lastname", v)}
        />
      </div>
      <div className="quickreg-row">
        <DigitsField
          name="age"
          label="Ålder"
          hint="År, eller födelseår"
          maxLength={4}
          value={draft.age}
          error={errors.age}
          onChange={(v) => set("age", v)}
        />
        {!(family && draft.companion) && (
          <DigitsField
            name="bib"
            label="Startnummer"
            maxLength={5}
            value={draft.bib}
            error={errors.bib}
            onChange={(v) => set("bib", v)}
          />
        )}
      </div>
      {family && (
        <CompanionChoice
          name="companion"
          checked={draft.companion === true}
          onChange={(companion) => onDraft({ ...draft, companion, bib: "" })}
          error={errors.companion ?? (draft.companion ? errors.bib : undefined)}
        />
      )}
      <RadioGroup
        name="distance"
        legend="Distans"
        error={errors.distance}
        value={draft.distance}
        options={BOX_OFFICE_DISTANCES.map((d) => ({ value: d, label: distanceLabel(d) }))}
        onChange={(v) => set("distance", v)}
      />
      <RadioGroup
        name="group"
        legend="Grupp"
        error={errors.group}
        value={draft.group}
        options={BOX_OFFICE_GROUPS.map((g) => ({ value: g, label: g }))}
        onChange={(v) => set("group", v)}
      />
      {draft.extra.map((runner, i) => (
        <ExtraRunner
          key={i}
          index={i + 1}
          runner={runner}
          errors={errors}
          onChange={(r) => setExtra(i, r)}
          onRemove={() => {
            const extra = draft.extra.filter((_, j) => j !== i);
            // Alone again, the first runner competes: a companion needs a child in the sale.
            onDraft({ ...draft, extra, ...(extra.length === 0 ? { companion: false } : {}) });
          }}
        />
      ))}
      <Button
        className="quickreg-add"
        disabled={draft.extra.length >= 9}
        onClick={() => onDraft({ ...draft, extra: [...draft.extra, { ...EMPTY_RUNNER, lastname: draft.lastname }] })}
      >
        Lägg till löpare
      </Button>
      <Field label="Telefon" error={errors.phone} hint={family ? "Ett nummer för hela familjen" : undefined}>
        {(control) => (
          <input
            {...control}
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            maxLength={20}
            value={draft.phone}
            onChange={(e) => set("phone", e.target.value)}
          />
        )}
      </Field>

      <RadioGroup
        name="method"
        legend="Betalning"
        error={errors.method}
        value={draft.method}
        options={METHODS}
        onChange={(v) => set("method", v)}
        flow
      />
      {draft.method === "kampanj" && (
        <Field label="Kampanjkod" error={errors.kampanj} hint="Koden måste täcka hela avgiften">
          {(control) => (
            <input
              {...control}
              name="kampanj"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              className="quickreg-code"
              value={draft.kampanj}
              onChange={(e) => set("kampanj", e.target.value.toUpperCase())}
            />
          )}
        </Field>
      )}

      <p className="quickreg-price" aria-live="polite">
        {draft.method === "kampanj"
          ? "Att betala: 0 kr med giltig kampanjkod"
          : price !== null
            ? family
              ? `Att betala: ${formatKr(price)} (${draft.extra.length + 1} löpare)`
              : `Att betala: ${formatKr(price)} (${adult ? "vuxen" : "barn"})`
            : season?.onSitePrice
              ? `Pris på plats: vuxen ${formatKr(season.onSitePrice.adult)}, barn ${formatKr(season.onSitePrice.child)}`
              : null}
      </p>

      {errors._ && (
        <p className="alert alert-error" role="alert">
          {errors._}
        </p>
      )}
      <Button type="submit" variant="primary" size="large" loading={start.isPending}>
        Nästa
      </Button>
    </form>
  );
}

interface ExtraRunnerProps {
  /** 1 for the family's second runner. */
  index: number;
  runner: RunnerDraft;
  errors: FormErrors;
  onChange: (runner: RunnerDraft) => void;
  onRemove: () => void;
}

/** Another runner of the family: the runner's own fields; phone and payment are the sale's. */
function ExtraRunner({ index, runner, errors, onChange, onRemove }: ExtraRunnerProps) {
  const key = (field: keyof RunnerDraft) => `runners.${index}.${field}`;
  const set = <K extends keyof RunnerDraft>(field: K, value: RunnerDraft[K]) => onChange({ ...runner, [field]: value });
  const text = (field: "firstname" | "lastname", label: string) => (
    <TextField
      label={label}
      name={key(field)}
      error={errors[key(field)]}
      value={runner[field]}
      onChange={(v) => set(field, v)}
    />
  );
  const digits = (field: "age" | "bib", label: string, max: number) => (
    <DigitsField
      name={key(field)}
      label={label}
      maxLength={max}
      value={runner[field]}
      error={errors[key(field)]}
      onChange={(v) => set(field, v)}
    />
  );
  return (
    <fieldset className="quickreg-extra" aria-label={`Löpare ${index + 1}`}>
      <legend>Löpare {index + 1}</legend>
      <div className="quickreg-row">
        {text("firstname", "Förnamn")}
        {text("lastname", "Efternamn")}
      </div>
      <div className="quickreg-row">
        {digits("age", "Ålder", 4)}
        {!runner.companion && digits("bib", "Startnummer", 5)}
      </div>
      <CompanionChoice
        name={key("companion")}
        checked={runner.companion === true}
        onChange={(companion) => onChange({ ...runner, companion, bib: "" })}
        error={errors[key("companion")] ?? (runner.companion ? errors[key("bib")] : undefined)}
      />
      <RadioGroup
        name={key("distance")}
        legend="Distans"
        error={errors[key("distance")]}
        value={runner.distance}
        options={BOX_OFFICE_DISTANCES.map((d) => ({ value: d, label: distanceLabel(d) }))}
        onChange={(v) => set("distance", v)}
      />
      <RadioGroup
        name={key("group")}
        legend="Grupp"
        error={errors[key("group")]}
        value={runner.group}
        options={BOX_OFFICE_GROUPS.map((g) => ({ value: g, label: g }))}
        onChange={(v) => set("group", v)}
      />
      <Button variant="text" size="small" onClick={onRemove}>
        Ta bort löpare {index + 1}
      </Button>
    </fieldset>
  );
}

/** 'Springer med barn (ej tävlande)' for one runner of the sale, with the server's message about it. */
function CompanionChoice(props: {
  name: string;
  checked: boolean;
  onChange: (companion: boolean) => void;
  error: string | undefined;
}) {
  return (
    <div className="field companion-choice">
      <label className="choice">
        <input
          type="checkbox"
          name={props.name}
          checked={props.checked}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <span>
          {COMPANION_LABEL} <small>Vuxen som springer med ett barn i köpet: ingen nummerlapp, ingen tid.</small>
        </span>
      </label>
      {props.error && <p className="field-error">{props.error}</p>}
    </div>
  );
}
