/**
 * Step 3: the family's runners, the price and the way to payment (spec §2, §4). Every change saves the full
 * runner map with the version this page last saw. Paid status is each runner's (issue 24): while registration is
 * open a paid family can still edit its runners (a paid one cannot be removed) and add a late sibling, who is then
 * paid for alone; what was paid shows above the list. A child moved to another distance takes the adults running
 * with it along in the same save, and an adult a refund left without a child is explained above the list (issue 39,
 * stranded-companions.tsx).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { normalizeCode } from "../../../shared/campaign";
import { companionKm, companionsLeftWithoutChild, strandedCompanions } from "../../../shared/companion";
import { openDistances } from "../../../shared/season-rules";
import { SEASON } from "../../../shared/season";
import type { RunnerFields, RunnerMap } from "../../../shared/registration-schema";
import { Button } from "../../components/ui/button";
import { ApiError } from "../../lib/api";
import { useConfig } from "../../lib/config/get-config";
import { CAMPAIGN_TOKEN, useBook } from "./api/book";
import { registrationQueryOptions } from "./api/get-registration";
import type { Registration, Runner } from "./api/types";
import { useUpdateRunners } from "./api/update-runners";
import { campaignQueryKeyRoot, useValidateKampanj } from "./api/validate-kampanj";
import { CampaignField } from "./campaign-field";
import { ErrorAlert, messagesOf } from "./error-alert";
import { FamilyResults } from "./family-results";
import { PaymentStatus } from "./payment-status";
import { runnerState, unpaidRunners } from "../../../shared/registration-view";
import { formatKr } from "../../lib/format";
import { CheckinQr } from "./checkin-qr";
import type { PaymentStepState } from "./payment-step";
import { PriceSummary } from "./price-summary";
import { draftOf, EMPTY_DRAFT, RunnerDialog, type RunnerDraft } from "./runner-dialog";
import { newRunnerId } from "./runner-id";
import { RunnerList } from "./runner-list";
import { useDebounced } from "./use-debounced";
import { StrandedCompanions } from "./stranded-companions";
import { WelcomeBack } from "./welcome-back";

function fieldsOf(r: Runner): RunnerFields {
  return {
    firstname: r.firstname,
    lastname: r.lastname,
    age: r.age,
    company: r.company,
    distance: r.distance,
    group: r.group,
    ...(r.companion === true ? { companion: true as const } : {}),
  };
}

function runnerMap(registration: Registration): RunnerMap {
  return Object.fromEntries(Object.values(registration.deltagare).map((r) => [r.id, fieldsOf(r)]));
}

const nameKey = (r: { firstname: string; lastname: string }) =>
  `${r.firstname.trim().toLowerCase()}\u0000${r.lastname.trim().toLowerCase()}`;

export function RunnersStep({ registration }: { registration: Registration }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const season = useConfig().data?.season;
  const tier = season?.priceTier ?? SEASON.earlyPrice;
  const adultAge = season?.adultAge ?? SEASON.adultAge;
  const companionPrice = season?.companionPrice ?? SEASON.companionPrice;
  const distances =
    season?.distances ?? openDistances(SEASON).map((distance) => ({ distance, startTime: "", raceId: "" }));

  const [errors, setErrors] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ open: boolean; id: string | null; initial: RunnerDraft }>({
    open: false,
    id: null,
    initial: EMPTY_DRAFT,
  });
  // A payment that failed (or is still open) keeps the family's code: the retry is priced with it (issue 24).
  const [kampanj, setKampanj] = useState(() => {
    const selected = registration.payid ? registration.swishtory[registration.payid] : undefined;
    return selected && selected.status !== "PAID" ? (selected.kampanj ?? "") : "";
  });
  const update = useUpdateRunners();
  const book = useBook();

  const runners = Object.values(registration.deltagare);
  // What a booking pays for: the runners not paid yet (the whole family the first time, a late sibling after).
  const toPay = unpaidRunners(runners);
  // Adults running with a child are counted apart (shared/companion.ts), as the server counts them.
  const medBarn = toPay.filter((r) => r.companion === true).length;
  const vuxna = toPay.filter((r) => r.companion !== true && r.age >= adultAge).length;
  const counts = { barn: toPay.length - vuxna - medBarn, vuxna };
  const priced = { ...counts, medBarn };
  const hasPaid = runners.some((r) => runnerState(r) !== "unpaid");

  const code = normalizeCode(useDebounced(kampanj, 350));
  const check = useValidateKampanj({ kampanj: code, ...priced });
  const checking = normalizeCode(kampanj) !== code || (code !== "" && check.isFetching);
  const result = code !== "" ? (check.data ?? null) : null;
  const campaign = result?.valid && !checking ? { code, price: result.price } : null;
  // Spec §8: a code the last check refused (or could not check) means no discount. The booking then goes without
  // it, since the server refuses a code that does not apply; one still being checked is left for the server.
  const codeToBook = checking || campaign ? normalizeCode(kampanj) : "";

  const editable = registration.registrationOpen;
  const editingRunner = dialog.id ? registration.deltagare[dialog.id] : undefined;
  const companionRules = { ...SEASON, adultAge };
  const family = runners.map((r) => ({ ...r, key: r.id }));
  // Who runs with the runner in the dialog alone (shared/companion.ts): they follow it to a new distance.
  const followers = dialog.id ? companionsLeftWithoutChild(new Set([dialog.id]), family, companionRules) : [];
  const stranded = strandedCompanions(runners, companionRules).find((r) => r.id === dialog.id);
  const strandedNote = stranded
    ? `Inget barn i anmälan springer ${companionKm(stranded.distance)} längre. Välj en distans där ett barn springer för att spara en ändring av ${stranded.firstname}.`
    : undefined;
  const have = new Set(runners.map(nameKey));
  const previous = editable ? registration.previousRunners.filter((r) => !have.has(nameKey(r))) : [];
  const openIds = new Set(distances.map((d) => d.distance));

  /** Saves the whole map; resolves to the message to show, or null when saved. */
  async function save(next: RunnerMap): Promise<string | null> {
    try {
      await update.mutateAsync({ runners: next, version: registration.version });
      setErrors([]);
      return null;
    } catch (err) {
      return messagesOf(err).join(" ");
    }
  }

  async function addPrevious(runner: RunnerFields) {
    if (!openIds.has(runner.distance)) {
      // Last year's distance is not run this year: let the visitor choose another one in the form.
      setDialog({ open: true, id: null, initial: { ...draftOf(runner), distance: "" } });
      return;
    }
    const error = await save({ ...runnerMap(registration), [newRunnerId()]: runner });
    if (error) setErrors([error]);
  }

  function pay() {
    setErrors([]);
    book.mutate(
      { ...counts, kampanj: codeToBook },
      {
        onSuccess: ({ token, payref, amount }) => {
          // Spec §4: a free order (or one covered by the code) is settled already: reload at once.
          if (token === CAMPAIGN_TOKEN) window.location.reload();
          else {
            const state: PaymentStepState = { token, payref, ...(amount !== undefined ? { amount } : {}) };
            navigate("/anmalan/4", { state });
          }
        },
        onError: (err) => {
          setErrors(messagesOf(err));
          if (err instanceof ApiError && (err.status === 409 || err.status === 400 || err.status === 403)) {
            void queryClient.invalidateQueries({ queryKey: registrationQueryOptions().queryKey });
            // A code refused at booking (used up, switched off meanwhile) is checked again for the field's text.
            void queryClient.invalidateQueries({ queryKey: campaignQueryKeyRoot });
          }
        },
      },
    );
  }

  return (
    <div className="reg-step">
      <h2>Dina löpare</h2>
      <p className="reg-aside">
        Inloggad som <strong className="reg-email">{registration.email}</strong>. <Link to="/logout">Logga ut</Link>
      </p>

      <PaymentStatus registration={registration} />
      {registration.checkinCode && <CheckinQr code={registration.checkinCode} />}

      <FamilyResults runners={runners} enabled={hasPaid} />

      {!registration.registrationOpen && (toPay.length > 0 || runners.length === 0) && (
        <div className="alert alert-warning" role="status">
          <p>
            <strong>Anmälan är stängd.</strong> Listan kan inte längre ändras eller betalas här. Du är välkommen att
            anmäla dig på plats på tävlingsdagen.
          </p>
        </div>
      )}
      {!registration.registrationOpen && toPay.length === 0 && hasPaid && (
        <p className="reg-aside" role="status">
          Anmälan är stängd, så löparna kan inte längre ändras här. Skriv till{" "}
          <a href={`mailto:${SEASON.contactEmail}`}>{SEASON.contactEmail}</a> om något behöver ändras.
        </p>
      )}

      {editable && <WelcomeBack runners={previous} busy={update.isPending} onAdd={(r) => void addPrevious(r)} />}

      {editable && <StrandedCompanions runners={runners} adultAge={adultAge} />}

      <RunnerList
        runners={runners}
        tier={tier}
        adultAge={adultAge}
        companionPrice={companionPrice}
        onEdit={
          editable
            ? (r) => {
                setErrors([]);
                setDialog({ open: true, id: r.id, initial: draftOf(r) });
              }
            : undefined
        }
      />

      {editable && (
        <Button
          className="add-runner"
          size="large"
          onClick={() => {
            setErrors([]);
            setDialog({ open: true, id: null, initial: EMPTY_DRAFT });
          }}
        >
          <span aria-hidden="true">+</span> Lägg till löpare
        </Button>
      )}

      <ErrorAlert errors={errors} onClear={() => setErrors([])} />

      {editable && toPay.length > 0 && (
        <section className="checkout" aria-label="Betalning">
          {hasPaid && <h3 className="checkout-title">Att betala för tillagda löpare</h3>}
          <PriceSummary
            counts={priced}
            tier={tier}
            adultAge={adultAge}
            companionPrice={companionPrice}
            campaign={campaign}
          />
          <CampaignField value={kampanj} onChange={setKampanj} checking={checking} result={result} />
          <Button variant="primary" size="large" className="reg-submit" loading={book.isPending} onClick={pay}>
            Till betalning
          </Button>
        </section>
      )}

      <RunnerDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
        editing={dialog.id !== null}
        paidNote={
          editingRunner?.paidBy
            ? `Betald${editingRunner.price !== null ? ` (${formatKr(editingRunner.price)})` : ""}. Ändringar kostar inget, men en ålder som flyttar löparen mellan barn- och vuxenpris kan inte ändras här.`
            : undefined
        }
        initial={dialog.initial}
        distances={distances}
        family={runners
          .filter((r) => r.id !== dialog.id)
          .map((r) => ({ age: r.age, distance: r.distance, companion: r.companion, deregistered: r.deregistered }))}
        followers={followers}
        note={strandedNote}
        adultAge={adultAge}
        companionPrice={companionPrice}
        onSave={(runner, moveAlong) => {
          const next = { ...runnerMap(registration), [dialog.id ?? newRunnerId()]: runner };
          for (const id of moveAlong) next[id] = { ...next[id]!, distance: runner.distance };
          return save(next);
        }}
        onDelete={() => {
          const next = runnerMap(registration);
          if (dialog.id) delete next[dialog.id];
          return save(next);
        }}
      />
    </div>
  );
}
