/**
 * The box office's own form controls, shared by its two forms (a sale, quickreg-form.tsx; a companion for a child
 * registered online, companion-sale-form.tsx): a text field, a group of radio buttons drawn as buttons, and a field of
 * digits.
 */
import type { BoxOfficeMethod } from "../../../../shared/box-office";
import { Field } from "../../../components/ui/field";

/** How the box office takes payment (spec §3). */
export const METHODS: { value: BoxOfficeMethod; label: string }[] = [
  { value: "swish", label: "Swish" },
  { value: "kontant", label: "Kontant" },
  { value: "kampanj", label: "Kampanjkod" },
];

export interface RadioGroupProps<T extends string> {
  name: string;
  legend: string;
  error?: string;
  value: T | "";
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
  /** Buttons as wide as their labels, wrapping whole (labels of different lengths: 'Kampanjkod'); else a grid. */
  flow?: boolean;
}

export function RadioGroup<T extends string>({
  name,
  legend,
  error,
  value,
  options,
  onChange,
  flow,
}: RadioGroupProps<T>) {
  const errorId = `quickreg-${name.replaceAll(".", "-")}-error`;
  return (
    <fieldset
      className="field quickreg-choices"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field-label">{legend}</legend>
      <div className={flow ? "quickreg-options quickreg-options-flow" : "quickreg-options"}>
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

/** A field of digits only (an age or a birth year, a bib): anything else typed is dropped as it is typed. */
export function DigitsField(props: {
  name: string;
  label: string;
  hint?: string;
  maxLength: number;
  value: string;
  error: string | undefined;
  onChange: (digits: string) => void;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          name={props.name}
          inputMode="numeric"
          autoComplete="off"
          maxLength={props.maxLength}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value.replace(/\D/g, ""))}
        />
      )}
    </Field>
  );
}

export interface TextFieldProps {
  name: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

/** A name's field: free text, no autofill (each runner is someone else). */
export function TextField({ name, label, value, error, onChange }: TextFieldProps) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <input {...control} name={name} autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}
