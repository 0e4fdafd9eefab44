/**
 * /kvitto/{id}: where Swish sends the payer back (the payref is the id). It waits for the payment to settle and
 * then goes to /anmalan/3, which shows 'Klart och betalt!' (spec §2 "Payment verification page", §4, §8).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, Navigate, useParams } from "react-router";
import { SEASON } from "../../../shared/season";
import { Button } from "../../components/ui/button";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useConfig } from "../../lib/config/get-config";
import { registrationQueryOptions } from "./api/get-registration";
import { useVerifyPolling } from "./use-verify-polling";
import "./registration.css";

export default function ReceiptPage() {
  useDocumentTitle("Betalning");
  const { id = "" } = useParams();
  const [attempt, setAttempt] = useState(0);
  const state = useVerifyPolling(id, attempt);
  const queryClient = useQueryClient();
  const contactEmail = useConfig().data?.season.contactEmail ?? SEASON.contactEmail;

  useEffect(() => {
    // The registration page must read the settled payment, not a copy cached before paying.
    if (state === "settled") void queryClient.invalidateQueries({ queryKey: registrationQueryOptions().queryKey });
  }, [state, queryClient]);

  if (state === "settled") return <Navigate to="/anmalan/3" replace />;

  const mail = <a href={`mailto:${contactEmail}?subject=${encodeURIComponent(`Betalning ${id}`)}`}>{contactEmail}</a>;

  return (
    <section className="page registration receipt">
      <h1>Betalning</h1>
      <div className="reg-step">
        {state === "waiting" && (
          <p className="reg-loading" role="status">
            <span className="spinner" aria-hidden="true" /> Hämtar betalningsinformation …
          </p>
        )}
        {state === "logged-out" && (
          <div className="alert alert-warning" role="alert">
            <h2>Utloggad</h2>
            <p>
              Du är utloggad. <Link to="/anmalan">Logga in</Link> med din e-postadress för att se din anmälan och
              betalning.
            </p>
          </div>
        )}
        {state === "failed" && (
          <div className="alert alert-error" role="alert">
            <h2>Oups! Nåt blev knasigt</h2>
            <p>
              Vi hittar inte den här betalningen. Har du betalat? Mejla oss på {mail} så reder vi ut det – skriv gärna
              med referensen <strong className="reg-email">{id}</strong>.
            </p>
          </div>
        )}
        {state === "timed-out" && (
          <div className="alert alert-warning" role="alert">
            <p>
              <strong>Vi har inte fått besked från Swish ännu …</strong>
            </p>
            <p>
              Har du godkänt betalningen i Swish-appen syns den på din anmälan så snart Swish har svarat. Titta på
              anmälningssidan om en stund. Ordnar det sig inte, mejla oss på {mail}.
            </p>
          </div>
        )}
        {state === "timed-out" && <Button onClick={() => setAttempt((n) => n + 1)}>Försök igen</Button>}
        <p>
          <Link to="/anmalan/3">Till din anmälan</Link>
        </p>
        <p className="reg-aside">Frågor om betalningen? Mejla {mail}.</p>
      </div>
    </section>
  );
}
