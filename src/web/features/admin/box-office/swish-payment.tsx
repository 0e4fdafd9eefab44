/**
 * The Swish step of a box-office sign-up: the QR (spec: `/qr-v2?token=…`) at most of a phone's width so the payer
 * can scan it across the table, the amount, and the wait for the payment: the payment's socket
 * (`{wsUrl}/pay/{payid}`, as the visitor's payment step) and, should the socket fail, the status call every few
 * seconds (it asks Swish itself). The outcome replaces the QR once the payment is settled.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Button, buttonClass } from "../../../components/ui/button";
import { useConfig } from "../../../lib/config/get-config";
import { formatKr } from "../../../lib/format";
import { usePaymentWait } from "../../../lib/use-payment-wait";
import { useCancelQuickReg } from "./api/cancel-quickreg";
import { quickRegQueryOptions, useQuickReg } from "./api/get-quickreg";
import type { QuickRegStarted } from "../../../../shared/box-office";
import { SignUpOutcome, type SaleAgain } from "./sign-up-outcome";

export interface SwishPaymentProps {
  started: QuickRegStarted;
  /** Who the sale is for, as the payer checks it: names, distance and bib. */
  who: string;
  again: SaleAgain;
  onNextFamily: () => void;
  onRetry: (started: QuickRegStarted) => void;
  onEdit: () => void;
}

export function SwishPayment({ started, who, again, onNextFamily, onRetry, onEdit }: SwishPaymentProps) {
  const config = useConfig().data;
  const queryClient = useQueryClient();
  const status = useQuickReg(started.payid);
  const cancel = useCancelQuickReg();
  const heading = useRef<HTMLHeadingElement>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: quickRegQueryOptions(started.payid).queryKey });

  usePaymentWait(config?.wsUrl, started.payid, { onPaid: refresh, onFailed: refresh });
  useEffect(() => heading.current?.focus(), [started.payid]);

  if (status.data && status.data.status !== "CREATED") {
    return (
      <SignUpOutcome
        payid={started.payid}
        again={again}
        onNextFamily={onNextFamily}
        onRetry={onRetry}
        onEdit={onEdit}
      />
    );
  }

  const token = started.token!;
  return (
    <div className="swish-payment">
      <h2 ref={heading} tabIndex={-1}>
        Betala {formatKr(started.amount)} med Swish
      </h2>
      <p className="swish-payment-who">{who}</p>
      <img
        className="box-office-qr"
        src={`/qr-v2?token=${encodeURIComponent(token)}`}
        width={360}
        height={360}
        alt={`QR-kod för att betala ${formatKr(started.amount)} med Swish`}
      />
      <p className="box-office-amount">{formatKr(started.amount)}</p>
      <p className="box-office-token muted">Token: {token}</p>
      <p className="box-office-waiting" role="status">
        <span className="box-office-spinner" aria-hidden="true" />
        Väntar på betalningen …
      </p>
      {cancel.isError && (
        <p className="alert alert-error" role="alert">
          {cancel.error.message}
        </p>
      )}
      <div className="box-office-actions">
        {config?.devMode && (
          <a
            className={buttonClass({})}
            href={`/dev/swish/pay/${encodeURIComponent(token)}`}
            target="_blank"
            rel="noopener"
          >
            Öppna Swish-simulatorn
          </a>
        )}
        <Button loading={cancel.isPending} onClick={() => cancel.mutate(started.payid)}>
          Avbryt betalningen
        </Button>
      </div>
    </div>
  );
}
