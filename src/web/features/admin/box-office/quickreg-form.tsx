/**
 * The quick-registration form (spec §2 Box office, §3 payload, §4 form states): firstname, lastname, age,
 * distance, group, phone and bib, then how the fee is paid. Checked on submit only; 'Nästa' shows its loading
 * state while the server answers. The fee shown is the season's on-site price for the age typed.
 */
import { useState, type FormEvent } from "react";
import { distanceLabel } from "../../../../shared/distances";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api";
import { useConfig } from "../../config/get-config";
import { formatKr } from "../../registration/format";
import {
  BOX_OFFICE_DISTANCES,
  BOX_OFFICE_GROUPS,
  type BoxOfficeMethod,
  type QuickRegErrors,
  type QuickRegStarted,
} from "../../../../shared/box-office";
import { useStartQuickReg } from "./api/start-quickreg";
import { checkQuickReg, type QuickRegDraft, type QuickRegField } from "./quickreg-rules";

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

const METHODS: { value: BoxOfficeMethod; label: string }[] = [
  { value: "swish", label: "Swish" },
  { value: "kontant", label: "Kontant" },
  { value: "kampanj", label: "Kampanjkod" },
];

function serverErrors(err: unknown): QuickRegErrors {
  if (!(err instanceof ApiError)) return { _: "Något gick fel. Försök igen." };
  const out: QuickRegErrors = {};
  const fields = err.errors;
  if (typeof fields === "object" && fields !== null) {
    for (const [key, message] of Object.entries(fields)) {
      const field = FIELDS.find((f) => f === key);
      if (field && typeof message === "string") out[field] ??= message;
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
  const [errors, setErrors] = useState<QuickRegErrors>({});
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
    const show = (found: QuickRegErrors) => {
      setErrors(found);
      const first = FIELDS.find((f) => found[f]);
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
  const age = /^\d{1,3}$/.test(draft.age.trim()) ? Number(draft.age) : null;
  const adult = season && age !== null ? age >= season.adultAge : null;
  const price = season?.onSitePrice && adult !== null ? season.onSitePrice[adult ? "adult" : "child"] : null;

  return (
    <form className="quickreg-form" onSubmit={submit} noValidate aria-labelledby="quickreg-title">
      <h2 id="quickreg-title">Biljettkassan</h2>
      <p className="muted">Anmäl en löpare på plats. Löparen kommer med i loppet när avgiften är betald.</p>
      <div className="quickreg-row">
        <Field label="Förnamn" error={errors.firstname}>
          {(control) => (
            <input
              {...control}
              name="firstname"
              autoComplete="off"
              value={draft.firstname}
              onChange={(e) => set("firstname", e.target.value)}
            />
          )}
        </Field>
        <Field label="Efternamn" error={errors.lastname}>
          {(control) => (
            <input
              {...control}
              name="lastname"
              autoComplete="off"
              value={draft.lastname}
              onChange={(e) => set("lastname", e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="quickreg-row">
        <Field label="Ålder" error={errors.age} hint="År, eller födelseår">
          {(control) => (
            <input
              {...control}
              name="age"
              inputMode="numeric"
              autoComplete="off"
              maxLength={4}
              value={draft.age}
              onChange={(e) => set("age", e.target.value.replace(/\D/g, ""))}
            />
          )}
        </Field>
        <Field label="Startnummer" error={errors.bib}>
          {(control) => (
            <input
              {...control}
              name="bib"
              inputMode="numeric"
              autoComplete="off"
              maxLength={5}
              value={draft.bib}
              onChange={(e) => set("bib", e.target.value.replace(/\D/g, ""))}
            />
          )}
        </Field>
      </div>
      <Field label="Telefon" error={errors.phone}>
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
      <RadioGroup
        name="method"
        legend="Betalning"
        error={errors.method}
        value={draft.method}
        options={METHODS}
        onChange={(v) => set("method", v)}
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
            ? `Att betala: ${formatKr(price)} (${adult ? "vuxen" : "barn"})`
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

interface RadioGroupProps<T extends string> {
  name: QuickRegField;
  legend: string;
  error?: string;
  value: T | "";
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}

function RadioGroup<T extends string>({ name, legend, error, value, options, onChange }: RadioGroupProps<T>) {
  const errorId = `quickreg-${name}-error`;
  return (
    <fieldset
      className="field quickreg-choices"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field-label">{legend}</legend>
      <div className="quickreg-options">
        {options.map((o) => (
          <label key={o.value} className="quickreg-option">
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
