/**
 * /anmalan/lank?t=…: the login mail's sign-in link (issue 43). Opening the page signs no one in (mail scanners open
 * links): the visitor presses 'Logga in', which POSTs the token; then the runners' step. A used, expired or garbled
 * link shows the server's Swedish message and the way back to a new code.
 */
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button } from "../../components/ui/button";
import { useConfirmLink } from "./api/confirm-link";
import { ErrorAlert, messagesOf } from "./error-alert";

export function LinkStep() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get("t") ?? "";
  const [errors, setErrors] = useState<string[]>([]);
  const confirmLink = useConfirmLink();

  function signIn() {
    setErrors([]);
    confirmLink.mutate(token, {
      onSuccess: () => navigate("/anmalan/3", { replace: true }),
      onError: (err) => setErrors(messagesOf(err)),
    });
  }

  return (
    <div className="reg-step">
      <h2>Logga in med länken</h2>
      <p>Tryck på knappen för att logga in med länken från mejlet. Länken kan bara användas en gång.</p>
      <ErrorAlert errors={errors} onClear={() => setErrors([])} />
      <Button
        type="button"
        variant="primary"
        size="large"
        className="reg-submit"
        loading={confirmLink.isPending}
        onClick={signIn}
      >
        Logga in
      </Button>
      <p className="reg-aside">
        Fungerar inte länken? <Link to="/anmalan/1">Begär en ny kod</Link>.
      </p>
    </div>
  );
}
