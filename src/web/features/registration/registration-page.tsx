/**
 * /anmalan and /anmalan/{step}: the registration flow (spec §2, §4). Which step shows is decided from the URL
 * and the session, and the rules are idempotent, so a reload, a deep link or the back button always lands on a
 * step that makes sense: with a session steps 1–2 go to 3, without one steps 3–4 go to 1, a non-numeric step
 * goes to 1. Steps 2 and 4 carry what they need in the history entry (code id, payment token). /anmalan/lank is
 * the login mail's sign-in link (link-step.tsx), shown in place of step 2 to a visitor without a session.
 */
import type { ReactNode } from "react";
import { Navigate, useLocation, useParams } from "react-router";
import { Button } from "../../components/ui/button";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useRegistration } from "./api/get-registration";
import { CodeStep } from "./code-step";
import { LinkStep } from "./link-step";
import { isCodeStepState } from "./login-flow";
import { EmailStep } from "./email-step";
import { isPaymentStepState, PaymentStep } from "./payment-step";
import { RunnersStep } from "./runners-step";
import "./registration.css";

const STEP_TITLES = ["E-post", "Kod", "Löpare", "Betalning"] as const;

/** 1–4 from the URL; undefined (no step) is step 1; anything else is null (redirected to step 1). */
function parseStep(param: string | undefined): 1 | 2 | 3 | 4 | null {
  if (param === undefined) return 1;
  if (!/^[1-4]$/.test(param)) return null;
  return Number(param) as 1 | 2 | 3 | 4;
}

export default function RegistrationPage() {
  useDocumentTitle("Anmälan");
  const params = useParams();
  const location = useLocation();
  const registration = useRegistration();
  const link = params.step === "lank";
  const step = link ? 2 : parseStep(params.step);

  if (step === null) return <Navigate to="/anmalan/1" replace />;
  if (registration.isPending) {
    return (
      <RegistrationFrame step={null}>
        <p className="reg-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Hämtar din anmälan …
        </p>
      </RegistrationFrame>
    );
  }
  if (registration.isError) {
    return (
      <RegistrationFrame step={null}>
        <div className="alert alert-error" role="alert">
          <p>{registration.error.message}</p>
        </div>
        <Button onClick={() => void registration.refetch()}>Försök igen</Button>
      </RegistrationFrame>
    );
  }

  const reg = registration.data;
  if (reg) {
    if (step !== 4) {
      if (step !== 3) return <Navigate to="/anmalan/3" replace />;
      return (
        <RegistrationFrame step={3}>
          <RunnersStep registration={reg} />
        </RegistrationFrame>
      );
    }
    const booking = isPaymentStepState(location.state) ? location.state : null;
    const payment = booking ? reg.swishtory[booking.payref] : undefined;
    // A settled payment (or a reload after paying, which keeps the history entry) belongs on step 3.
    if (!booking || (payment && payment.status !== "CREATED")) {
      return <Navigate to="/anmalan/3" replace />;
    }
    return (
      <RegistrationFrame step={4}>
        <PaymentStep token={booking.token} payref={booking.payref} amount={booking.amount ?? payment?.amount} />
      </RegistrationFrame>
    );
  }

  if (step === 3 || step === 4) return <Navigate to="/anmalan/1" replace />;
  if (params.step === undefined) return <Navigate to="/anmalan/1" replace state={location.state} />;
  if (link) {
    return (
      <RegistrationFrame step={2}>
        <LinkStep />
      </RegistrationFrame>
    );
  }
  if (step === 2) {
    if (!isCodeStepState(location.state)) return <Navigate to="/anmalan/1" replace />;
    return (
      <RegistrationFrame step={2}>
        <CodeStep key={location.state.codeId} flow={location.state} />
      </RegistrationFrame>
    );
  }
  return (
    <RegistrationFrame step={1}>
      <EmailStep />
    </RegistrationFrame>
  );
}

function RegistrationFrame({ step, children }: { step: 1 | 2 | 3 | 4 | null; children: ReactNode }) {
  return (
    <section className="page registration">
      <h1>Anmälan</h1>
      {step !== null && (
        <ol className="reg-progress" aria-label="Steg">
          {STEP_TITLES.map((title, i) => (
            <li
              key={title}
              className={i + 1 === step ? "current" : i + 1 < step ? "done" : undefined}
              aria-current={i + 1 === step ? "step" : undefined}
            >
              <span className="reg-progress-number">{i + 1}</span>
              <span className="reg-progress-title">{title}</span>
            </li>
          ))}
        </ol>
      )}
      {children}
    </section>
  );
}
