/**
 * /admin/kassa ('Biljettkassan'): a runner, or a family ('Lägg till löpare': one phone number, one payment), and
 * from the bib desk an unpaid registration's runners filled in (`?fran={registration}`). The form (spec §4) → for Swish the QR, big enough to scan
 * across the table, and the live wait for the payment → the outcome: the runner is in race X with bib N, and
 * 'Nästa familj' starts over; a declined or failed payment adds nobody and can be tried again or dropped. Cash and
 * a campaign code go straight to the outcome. A lazy chunk inside the admin shell.
 */
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { toDistance } from "../../../../shared/distances";
import { useFamily } from "../check-in/api/get-family";
import { useDocumentTitle } from "../../../lib/use-document-title";
import type { QuickRegStarted } from "../../../../shared/box-office";
import { QuickRegForm } from "./quickreg-form";
import { EMPTY_DRAFT, type QuickRegDraft, type RunnerDraft } from "./quickreg-rules";
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
  // From the bib desk ('Till kassan'): an unpaid registration's runners, filled in for the family to pay here.
  const [params] = useSearchParams();
  const from = params.get("fran");
  const unpaid = useFamily(from ? { kind: "anmalan", id: from } : null).data;
  useEffect(() => {
    const toPay = unpaid?.runners.filter((r) => !r.paid && !r.deregistered) ?? [];
    if (toPay.length === 0) return;
    const runners: RunnerDraft[] = toPay.map((r) => ({
      firstname: r.firstname,
      lastname: r.lastname,
      age: String(r.age),
      distance: toDistance(r.distance) ?? "",
      group: r.group === "Dam" || r.group === "Herr" ? r.group : "",
      bib: r.bib ? String(r.bib) : "",
    }));
    setDraft({ ...EMPTY_DRAFT, ...runners[0]!, extra: runners.slice(1) });
    setRound((n) => n + 1);
  }, [unpaid]);

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
