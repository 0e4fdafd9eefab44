/**
 * The invitation form (admin spec §2, §5, §8): name and e-mail, checked on submit with the spec's messages
 * ('Name is required', 'E-mail is required', 'E-mail must be valid'), then by the server with the same rules.
 * Success: 'Invitation sent successfully!'; failure: the server's message, or 'Failed to send invitation' when
 * there is none (the network failed).
 */
import { useRef, useState, type FormEvent } from "react";
import { checkEpassiInvitation, EPASSI_EMAIL_MAX, EPASSI_MESSAGES, EPASSI_NAME_MAX } from "../../../../shared/campaign";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { epassiErrorOf } from "../../../../shared/api-answers";
import { ApiError } from "../../../lib/api";
import { useSendInvitation } from "./api/send-invitation";

type Errors = Partial<Record<"name" | "email", string>>;

/** The server's `message` (spec), else its `error`; 'Failed to send invitation' when it said nothing. */
export function failureText(err: unknown): string {
  if (!(err instanceof ApiError)) return EPASSI_MESSAGES.failed;
  return epassiErrorOf(err.body)?.message || err.answer?.error || EPASSI_MESSAGES.failed;
}

function fieldErrors(err: unknown): Errors {
  const fields = err instanceof ApiError ? err.answer?.errors : undefined;
  if (!fields) return {};
  const out: Errors = {};
  for (const key of ["name", "email"] as const) {
    const message = fields[key];
    if (message !== undefined) out[key] = message;
  }
  return out;
}

export function InvitationForm() {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const send = useSendInvitation();

  function showErrors(found: Errors) {
    setErrors(found);
    (found.name ? nameRef : emailRef).current?.focus();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setOutcome(null);
    const checked = checkEpassiInvitation({ name, email });
    if (!checked.ok) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    send.mutate(checked.value, {
      onSuccess: () => {
        setName("");
        setEmail("");
        setOutcome({ ok: true, text: EPASSI_MESSAGES.sent });
      },
      onError: (err) => {
        const found = fieldErrors(err);
        if (found.name || found.email) showErrors(found);
        setOutcome({ ok: false, text: failureText(err) });
      },
    });
  }

  return (
    <form className="epassi-form" onSubmit={submit} noValidate aria-labelledby="epassi-form-title">
      <h3 id="epassi-form-title">Skicka inbjudan</h3>
      <div className="field-row">
        <Field label="Namn" error={errors.name}>
          {(control) => (
            <input
              {...control}
              ref={nameRef}
              name="name"
              autoComplete="off"
              maxLength={EPASSI_NAME_MAX + 20}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setErrors((x) => ({ ...x, name: undefined }));
                setOutcome(null);
              }}
            />
          )}
        </Field>
        <Field label="E-postadress" error={errors.email}>
          {(control) => (
            <input
              {...control}
              ref={emailRef}
              name="email"
              type="email"
              inputMode="email"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={EPASSI_EMAIL_MAX + 20}
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setErrors((x) => ({ ...x, email: undefined }));
                setOutcome(null);
              }}
            />
          )}
        </Field>
      </div>
      {outcome && (
        <p className={`alert ${outcome.ok ? "alert-success" : "alert-error"}`} role={outcome.ok ? "status" : "alert"}>
          {outcome.text}
        </p>
      )}
      <Button type="submit" variant="primary" loading={send.isPending}>
        Skicka inbjudan
      </Button>
    </form>
  );
}
