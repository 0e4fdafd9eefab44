/**
 * How a box-office sign-up ended. Paid: the runner is in race X with bib N (or without one, when a timing phone
 * took the bib meanwhile: a paid runner is never left out), and 'Nästa familj' is ready. Declined, failed or
 * cancelled: nobody was added; 'Försök igen' starts a new payment for the same runner. A companion sold for a child
 * registered online says it has joined the family's registration.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { formatKr } from "../../../lib/format";
import type { QuickRegStarted, QuickRegStatus } from "../../../../shared/box-office";
import { useQuickReg } from "./api/get-quickreg";

/** A new payment for the same sale ('Försök igen'); null when the form must be checked again first. */
export type SaleAgain = () => Promise<QuickRegStarted> | null;

export interface SignUpOutcomeProps {
  payid: string;
  again: SaleAgain;
  onNextFamily: () => void;
  onRetry: (started: QuickRegStarted) => void;
  onEdit: () => void;
}

const METHOD_WORDS: Record<QuickRegStatus["method"], string> = {
  swish: "Swish",
  kontant: "kontant",
  kampanj: "kampanjkod",
};

export function SignUpOutcome({ payid, again, onNextFamily, onRetry, onEdit }: SignUpOutcomeProps) {
  const status = useQuickReg(payid);
  const retry = useMutation({ mutationFn: (attempt: Promise<QuickRegStarted>) => attempt });
  const focus = useRef<HTMLHeadingElement>(null);
  const data = status.data;
  const settled = data && (data.status !== "PAID" || data.added) ? data.status : null;

  useEffect(() => focus.current?.focus(), [settled]);

  if (!data) {
    return status.isError ? (
      <div className="alert alert-error" role="alert">
        <p>{status.error.message}</p>
        <Button onClick={() => void status.refetch()}>Försök igen</Button>
      </div>
    ) : (
      <p className="box-office-waiting" role="status">
        <span className="box-office-spinner" aria-hidden="true" />
        Hämtar betalningen …
      </p>
    );
  }

  const name =
    data.runners.length > 1
      ? data.runners.map((r) => `${r.firstname} ${r.lastname}`).join(", ")
      : `${data.runner.firstname} ${data.runner.lastname}`;
  if (data.status === "PAID") {
    if (!data.added) {
      return (
        <p className="box-office-waiting" role="status">
          <span className="box-office-spinner" aria-hidden="true" />
          Betalt. {name} läggs in i loppet …
        </p>
      );
    }
    return (
      <div className="box-office-outcome">
        <section className="alert alert-success box-office-done" aria-labelledby="box-office-done-title">
          <h2 id="box-office-done-title" ref={focus} tabIndex={-1}>
            Klart!
          </h2>
          {data.runners.map((r) =>
            r.companion ? (
              <p className="box-office-done-line" key={r.id}>
                {r.firstname} {r.lastname} springer med barn på {r.distance.replace(".", ",")} km (ej tävlande, ingen
                nummerlapp).{r.family?.joined ? ` Tillagd i familjens anmälan (${r.family.email}).` : ""}
              </p>
            ) : (
              <p className="box-office-done-line" key={r.id}>
                {r.firstname} {r.lastname} springer i loppet{" "}
                <Link to={`/admin/race/${encodeURIComponent(r.raceId)}`}>{r.raceId}</Link>
                {r.bib !== null ? (
                  <>
                    {" "}
                    med startnummer <strong className="box-office-bib">{r.bib}</strong>.
                  </>
                ) : (
                  " utan startnummer."
                )}
              </p>
            ),
          )}
          <p>
            {data.runners.every((r) => r.companion)
              ? "Incheckad: ingen nummerlapp att hämta."
              : `Nummerlapparna är utlämnade: ${data.runners.length === 1 ? "löparen är incheckad" : "löparna är incheckade"}.`}
          </p>
          <p>
            {data.amount === 0 && data.runners.every((r) => r.companion)
              ? "Ingen avgift: den som springer med barn kostar 0 kr."
              : `Betalt ${formatKr(data.amount)} (${METHOD_WORDS[data.method]}).`}
          </p>
        </section>
        {data.runners
          .filter((r) => r.bib === null && r.requestedBib !== null)
          .map((r) => (
            <p className="alert alert-warning" role="alert" key={r.id}>
              Startnummer {r.requestedBib} hann tas av någon annan innan betalningen var klar, så {r.firstname}{" "}
              {r.lastname} lades till utan nummer. Ge ett ledigt nummer på loppets sida.
            </p>
          ))}
        <Button variant="primary" size="large" onClick={onNextFamily}>
          Nästa familj
        </Button>
      </div>
    );
  }

  const failure =
    data.status === "CANCELLED"
      ? "Betalningen avbröts."
      : data.status === "DECLINED"
        ? "Betalningen nekades i Swish."
        : `Betalningen gick inte igenom${data.errorMessage ? ` (${data.errorMessage})` : ""}.`;
  const tryAgain = () => {
    const attempt = again();
    if (attempt) retry.mutate(attempt, { onSuccess: onRetry });
    else onEdit();
  };
  return (
    <div className="box-office-outcome">
      <section className="alert alert-warning" aria-labelledby="box-office-failed-title">
        <h2 id="box-office-failed-title" ref={focus} tabIndex={-1}>
          Inte betalt
        </h2>
        <p>
          {failure} {name} har inte lagts till i något lopp. Inga pengar har dragits.
        </p>
      </section>
      {retry.isError && (
        <p className="alert alert-error" role="alert">
          {retry.error.message}
        </p>
      )}
      <div className="box-office-actions">
        <Button variant="primary" loading={retry.isPending} onClick={tryAgain}>
          Försök igen
        </Button>
        <Button onClick={onEdit}>Ändra uppgifter</Button>
        <Button variant="text" onClick={onNextFamily}>
          Avbryt
        </Button>
      </div>
    </div>
  );
}
