/**
 * /admin/kassa ('Biljettkassan'): a runner, or a family ('Lägg till löpare': one phone number, one payment), and
 * from the bib desk an unpaid registration's runners filled in (`?fran={registration}`); or ('Springer med barn
 * anmält på nätet') a companion place for a parent whose child registered online, the child found as at the bib
 * desk. The form (spec §4) → for Swish the QR, big enough to scan across the table, and the live wait for the
 * payment → the outcome: the runner is in race X with bib N (a companion: runs with the child, in the family's
 * registration), and 'Nästa familj' starts over; a declined or failed payment adds nobody and can be tried again or
 * dropped. Cash and a campaign code (and a companion place at 0 kr) go straight to the outcome. A lazy chunk inside
 * the admin shell.
 */
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { toDistance } from "../../../../shared/distances";
import { useFamily } from "../check-in/api/get-family";
import { useDocumentTitle } from "../../../lib/use-document-title";
import type { QuickRegStarted } from "../../../../shared/box-office";
import { startCompanionSale } from "./api/start-companion-sale";
import { startQuickReg } from "./api/start-quickreg";
import { CompanionSaleForm, companionSaleBody, emptyCompanionDraft, type CompanionDraft } from "./companion-sale-form";
import { QuickRegForm } from "./quickreg-form";
import { checkQuickReg, EMPTY_DRAFT, type QuickRegDraft, type RunnerDraft } from "./quickreg-rules";
import { SignUpOutcome, type SaleAgain } from "./sign-up-outcome";
import { SwishPayment } from "./swish-payment";
import "./box-office.css";

type Stage = { name: "form" } | { name: "swish"; started: QuickRegStarted } | { name: "outcome"; payid: string };
type Mode = "runners" | "companion";

/** Who a sale is for, as the Swish step shows it to the payer. */
function whoOf(mode: Mode, draft: QuickRegDraft, companion: CompanionDraft): string {
  if (mode === "companion") {
    const child = companion.child;
    const km = child ? `, ${child.distance.replace(".", ",")} km` : "";
    return `${companion.firstname} ${companion.lastname}, springer med ${child?.firstname ?? ""} ${child?.lastname ?? ""}${km}`;
  }
  return draft.extra.length === 0
    ? `${draft.firstname} ${draft.lastname}, ${draft.distance.replace(".", ",")} km, startnummer ${draft.bib}`
    : [draft, ...draft.extra].map((r) => `${r.firstname} ${r.lastname} (${r.bib})`).join(", ");
}

export default function BoxOfficePage() {
  useDocumentTitle("Biljettkassan");
  const [draft, setDraft] = useState<QuickRegDraft>(EMPTY_DRAFT);
  const [mode, setMode] = useState<Mode>("runners");
  const [companion, setCompanion] = useState<CompanionDraft>(emptyCompanionDraft);
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
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the form is refilled once per family the desk opens (its unpaid runners arrive from the server).
    setDraft({ ...EMPTY_DRAFT, ...runners[0]!, extra: runners.slice(1) });
    setMode("runners");
    setRound((n) => n + 1);
  }, [unpaid]);

  const nextFamily = () => {
    setDraft(EMPTY_DRAFT);
    setCompanion(emptyCompanionDraft());
    setStage({ name: "form" });
    setRound((r) => r + 1);
  };
  // 'Försök igen' after a payment that ended unpaid: a new payment for the same runners; a companion's is a new sale
  // (its own id: the one that ended unpaid stays that sale).
  const again: SaleAgain = () => {
    if (mode === "companion") {
      const next = { ...companion, saleId: crypto.randomUUID() };
      setCompanion(next);
      return startCompanionSale(companionSaleBody(next));
    }
    const checked = checkQuickReg(draft);
    return checked.ok ? startQuickReg(checked.body) : null;
  };
  const editAgain = () => {
    // A companion's sale that ended unpaid is done with: what is sent next is another sale.
    if (mode === "companion") setCompanion((c) => ({ ...c, saleId: crypto.randomUUID() }));
    setStage({ name: "form" });
    setRound((r) => r + 1);
  };
  const started = (s: QuickRegStarted) =>
    setStage(s.method === "swish" && s.token ? { name: "swish", started: s } : { name: "outcome", payid: s.payid });

  return (
    <section className="page box-office">
      {stage.name === "form" && (
        <div className="box-office-modes" role="group" aria-label="Vad säljs">
          <button type="button" aria-pressed={mode === "runners"} onClick={() => setMode("runners")}>
            Löpare
          </button>
          <button type="button" aria-pressed={mode === "companion"} onClick={() => setMode("companion")}>
            Springer med barn anmält på nätet
          </button>
        </div>
      )}
      {stage.name === "form" && mode === "runners" && (
        <QuickRegForm key={round} draft={draft} onDraft={setDraft} onStarted={started} />
      )}
      {stage.name === "form" && mode === "companion" && (
        <CompanionSaleForm key={round} draft={companion} onDraft={setCompanion} onStarted={started} />
      )}
      {stage.name === "swish" && (
        <SwishPayment
          started={stage.started}
          who={whoOf(mode, draft, companion)}
          again={again}
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
          again={again}
        />
      )}
    </section>
  );
}
