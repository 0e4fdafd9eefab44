/** Step 1: the e-mail address. The server sends a login code there (and in development hands it back). */
import { useState, type FormEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { ApiError } from "../../lib/api";
import { useConfig } from "../../lib/config/get-config";
import { useRequestCode } from "./api/request-code";
import { onSiteRegistrationText } from "../../../shared/season-rules";
import { ErrorAlert, messagesOf } from "./error-alert";
import type { CodeStepState, EmailStepState } from "./login-flow";

export function EmailStep() {
  const navigate = useNavigate();
  const location = useLocation();
  const initial = (location.state as EmailStepState | null)?.email ?? "";
  const [email, setEmail] = useState(initial);
  const [errors, setErrors] = useState<string[]>([]);
  const requestCode = useRequestCode();
  const season = useConfig().data?.season;
  const open = season?.registrationOpen ?? true;
  // Race morning: the closed registration points to the box office (issue: registration on site from 10:00).
  const onSite = season?.onSiteRegistration ?? false;

  function submit(e: FormEvent) {
    e.preventDefault();
    setErrors([]);
    const address = email.trim().toLowerCase();
    requestCode.mutate(address, {
      onSuccess: ({ id, code }) => {
        const state: CodeStepState = { email: address, codeId: id, code };
        navigate("/anmalan/2", { state });
      },
      onError: (err) =>
        // Spec §8: a 400 is always shown as 'Ogiltig e-postadress'; other failures (429 …) with the server's text.
        setErrors(err instanceof ApiError && err.status === 400 ? ["Ogiltig e-postadress"] : messagesOf(err)),
    });
  }

  return (
    <form className="reg-step" onSubmit={submit} noValidate>
      <h2>Logga in med e-post</h2>
      {open ? (
        <div className="alert alert-info">
          <p>
            Ange din e-postadress så skickar vi en kod som du loggar in med. Under samma adress kan du anmäla hela
            familjen – vuxna och barn – och betala allt på en gång med Swish eller en kampanjkod.
          </p>
        </div>
      ) : (
        <div className="alert alert-warning" role="status">
          <p>
            <strong>Anmälan är stängd.</strong> Du kan fortfarande logga in för att se din anmälan.
          </p>
          {onSite && <p className="reg-on-site">{onSiteRegistrationText()}</p>}
        </div>
      )}
      <Field label="E-postadress">
        {(control) => (
          <input
            {...control}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            // Spec: "step 1 with focus in the e-mail field".
            autoFocus
            value={email}
            aria-invalid={errors.length > 0 || undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors([]);
            }}
          />
        )}
      </Field>
      <ErrorAlert errors={errors} onClear={() => setErrors([])} />
      <Button type="submit" variant="primary" size="large" className="reg-submit" loading={requestCode.isPending}>
        Skicka kod
      </Button>
    </form>
  );
}
