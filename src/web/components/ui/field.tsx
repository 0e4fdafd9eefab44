/**
 * A labelled form control with its note under it: the error when there is one, else the hint (theme.css
 * `.field-*`). The note is the control's accessible description and an error marks the control invalid, so a
 * screen reader hears the same message that is shown. The control comes as a function of the props that tie
 * it to its label and note; a caller may override any of them (a message shown elsewhere, shared by two fields).
 */
import { useId, type ReactNode } from "react";

export interface FieldControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

export interface FieldProps {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export function Field({ label, error, hint, className, children }: FieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ? (
    <span className="field-error" id={noteId}>
      {error}
    </span>
  ) : hint ? (
    <span className="field-hint" id={noteId}>
      {hint}
    </span>
  ) : null;
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": note ? noteId : undefined })}
      {note}
    </div>
  );
}
