/**
 * Step 2: the code from the e-mail. Pre-filled with the code the server returned (development only; "" in
 * production). A 403 means registration is closed: the form gives way to the closed warning (spec §2, §8).
 */
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { ApiError } from "../../lib/api";
import { useConfirmCode } from "./api/confirm-code";
import { ErrorAlert, messagesOf } from "./error-alert";
import type { CodeStepState, EmailStepState } from "./login-flow";

export function CodeStep({ flow }: { flow: CodeStepState }) {
  const navigate = useNavigate();
  const [code, setCode] = useState(flow.code);
  const [errors, setErrors] = useState<string[]>([]);
  const [closed, setClosed] = useState(false);
  const confirmCode = useConfirmCode();
  const backState: EmailStepState = { email: flow.email };

  function submit(e: FormEvent) {
    e.preventDefault();
    setErrors([]);
    confirmCode.mutate(
      { email: flow.email, codeId: flow.codeId, code: code.trim() },
      {
        onSuccess: () => navigate("/anmalan/3", { replace: true }),
        onError: (err) => {
          if (err instanceof ApiError && err.status === 403) setClosed(true);
          else setErrors(messagesOf(err));
        },
      },
    );
  }

  if (closed) {
    return (
      <div className="reg-step">
        <h2>Anmälan är stängd</h2>
        <div className="alert alert-warning" role="alert">
          <p>
            Anmälan på webben är stängd. Du är varmt välkommen att anmäla dig på plats på tävlingsdagen – kom i god tid
            före start.
          </p>
        </div>
        <p>
          <Link to="/">Till startsidan</Link>
        </p>
      </div>
    );
  }

  return (
    <form className="reg-step" onSubmit={submit} noValidate>
      <h2>Ange koden</h2>
      <p>
        Vi har skickat en kod till <strong className="reg-email">{flow.email}</strong>. Skriv in den här. Koden gäller i
        10 minuter.
      </p>
      <Field label="Kod">
        {(control) => (
          <input
            {...control}
            type="text"
            name="code"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="one-time-code"
            maxLength={6}
            required
            autoFocus
            className="code-input"
            value={code}
            aria-invalid={errors.length > 0 || undefined}
            onChange={(e) => {
              setCode(e.target.value.replace(/\D/g, ""));
              setErrors([]);
            }}
          />
        )}
      </Field>
      <ErrorAlert errors={errors} onClear={() => setErrors([])} />
      <Button type="submit" variant="primary" size="large" className="reg-submit" loading={confirmCode.isPending}>
        Logga in
      </Button>
      <p className="reg-aside">
        Fick du ingen kod? Titta i skräpposten, eller{" "}
        <Link to="/anmalan/1" state={backState}>
          begär en ny kod
        </Link>
        .
      </p>
    </form>
  );
}
