/**
 * Step 4: pay with Swish. The QR code for paying from another device with the amount beside it ('200 kr'), the
 * 'Öppna Swish' button for paying on this phone (Swish sends the payer back to the receipt page), and the live wait
 * that reloads the page once paid.
 */
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { swishAppLink } from "../../../shared/payment-protocol";
import { buttonClass } from "../../components/ui/button";
import { useConfig } from "../../lib/config/get-config";
import { registrationQueryOptions } from "./api/get-registration";
import { campaignQueryKeyRoot } from "./api/validate-kampanj";
import { formatKr } from "../../lib/format";
import { usePaymentWait } from "../../lib/use-payment-wait";

/** What step 3 hands over in the history entry after booking. */
export interface PaymentStepState {
  token: string;
  payref: string;
  /** Whole kronor the payment asks for, as the booking answered it. */
  amount?: number;
}

export function isPaymentStepState(x: unknown): x is PaymentStepState {
  if (typeof x !== "object" || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    typeof s.token === "string" &&
    s.token !== "" &&
    typeof s.payref === "string" &&
    s.payref !== "" &&
    (s.amount === undefined || typeof s.amount === "number")
  );
}

export function PaymentStep({ token, payref, amount }: PaymentStepState) {
  const config = useConfig().data;
  const queryClient = useQueryClient();

  usePaymentWait(config?.wsUrl, payref, {
    // Spec §4: "on a message reporting payment 'ok' reloads the page" (it then shows 'Klart och betalt!').
    onPaid: () => window.location.reload(),
    // The registration now holds the failed payment; the page goes back to step 3 and shows it there, with the
    // code it carried checked anew (its use was given back, and may have gone to someone else since).
    onFailed: () => {
      void queryClient.invalidateQueries({ queryKey: campaignQueryKeyRoot });
      void queryClient.invalidateQueries({ queryKey: registrationQueryOptions().queryKey });
    },
  });

  const appLink = swishAppLink(token, `${window.location.origin}/kvitto/${encodeURIComponent(payref)}`);

  return (
    <div className="reg-step payment-step">
      <h2>Betala med Swish</h2>
      <p>Skanna QR-koden med Swish-appen i en annan telefon, eller öppna Swish direkt om du betalar med den här.</p>
      <div className="swish-pay">
        <img
          className="swish-qr"
          src={`/qr-v2?token=${encodeURIComponent(token)}`}
          width={240}
          height={240}
          alt="QR-kod för betalning med Swish"
        />
        {amount !== undefined && (
          <p className="swish-amount">
            <small>Att betala</small>
            <strong className="payment-amount">{formatKr(amount)}</strong>
          </p>
        )}
      </div>
      <a className={buttonClass({ variant: "primary", size: "large" }, "reg-submit")} href={appLink}>
        Öppna Swish
      </a>
      {config?.devMode && (
        <a
          className={buttonClass({}, "dev-link")}
          href={`/dev/swish/pay/${encodeURIComponent(token)}`}
          target="_blank"
          rel="noopener"
        >
          Öppna Swish-simulatorn
        </a>
      )}
      <p className="payment-waiting" role="status">
        <span className="spinner" aria-hidden="true" />
        Väntar på betalningen … Sidan uppdateras av sig själv när betalningen är klar.
      </p>
      <p className="reg-aside">
        <Link to="/anmalan/3">Tillbaka till anmälan</Link>
      </p>
    </div>
  );
}
