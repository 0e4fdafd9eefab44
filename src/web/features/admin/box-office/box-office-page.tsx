/**
 * /admin/kassa ('Biljettkassan'): one runner at a time. The form (spec §4) → for Swish the QR, big enough to scan
 * across the table, and the live wait for the payment → the outcome: the runner is in race X with bib N, and
 * 'Nästa familj' starts over; a declined or failed payment adds nobody and can be tried again or dropped. Cash and
 * a campaign code go straight to the outcome. A lazy chunk inside the admin shell.
 */
import { useState } from "react";
import { useDocumentTitle } from "../../../lib/use-document-title";
import type { QuickRegStarted } from "../../../../shared/box-office";
import { QuickRegForm } from "./quickreg-form";
import { EMPTY_DRAFT, type QuickRegDraft } from "./quickreg-rules";
import { SignUpOutcome } from "./sign-up-outcome";
import { SwishPayment } from "./swish-payment";
import "./box-office.css";

type Stage = { name: "form" } | { name: "swish"; started: QuickRegStarted } | { name: "outcome"; payid: string };

export default function BoxOfficePage() {
  useDocumentTitle("Biljettkassan");
  const [draft, setDraft] = useState<QuickRegDraft>(EMPTY_DRAFT);
  const [stage, setStage] = useState<Stage>({ name: "form" });
  // A new key per sign-up remounts the form, so 'Nästa' and its errors start fresh too.
  const [round, setRound] = useState(0);

  const nextFamily = () => {
    setDraft(EMPTY_DRAFT);
    setStage({ name: "form" });
    setRound((r) => r + 1);
  };
  const editAgain = () => {
    setStage({ name: "form" });
    setRound((r) => r + 1);
  };
  const started = (s: QuickRegStarted) =>
    setStage(s.method === "swish" && s.token ? { name: "swish", started: s } : { name: "outcome", payid: s.payid });

  return (
    <section className="page box-office">
      {stage.name === "form" && <QuickRegForm key={round} draft={draft} onDraft={setDraft} onStarted={started} />}
      {stage.name === "swish" && (
        <SwishPayment
          started={stage.started}
          draft={draft}
          onNextFamily={nextFamily}
          onRetry={(s) => setStage({ name: "swish", started: s })}
          onEdit={editAgain}
        />
      )}
      {stage.name === "outcome" && (
        <SignUpOutcome
          payid={stage.payid}
          onNextFamily={nextFamily}
          onRetry={started}
          onEdit={editAgain}
          draft={draft}
        />
      )}
    </section>
  );
}
