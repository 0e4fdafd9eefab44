import { CloseIcon } from "../../components/ui/icons";
import { ApiError } from "../../lib/api";

/**
 * One of the screen's error lists (spec §8: e-mail, code and booking errors, "cleared by a clear action"): the
 * messages in an alert with a 'Stäng' button. Renders nothing when the list is empty.
 */
export function ErrorAlert({ errors, onClear }: { errors: readonly string[]; onClear: () => void }) {
  if (errors.length === 0) return null;
  return (
    <div className="alert alert-error alert-dismissible" role="alert">
      {errors.length === 1 ? (
        <p>{errors[0]}</p>
      ) : (
        <ul>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <button type="button" className="alert-close" onClick={onClear} aria-label="Stäng">
        <CloseIcon size={20} />
      </button>
    </div>
  );
}

/** The Swedish messages of a failed call: the field errors (`{errors}`), else the `{error}` text. */
export function messagesOf(err: unknown): string[] {
  if (!(err instanceof Error)) return ["Något gick fel. Försök igen."];
  const fieldErrors = err instanceof ApiError ? err.errors : undefined;
  const list =
    typeof fieldErrors === "object" && fieldErrors !== null
      ? Object.values(fieldErrors).filter((m): m is string => typeof m === "string" && m !== "")
      : [];
  return list.length > 0 ? [...new Set(list)] : [err.message];
}
