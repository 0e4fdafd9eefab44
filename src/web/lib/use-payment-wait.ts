/**
 * The live wait for one payment (spec §4): a socket to the payment's Durable Object at `{wsUrl}/pay/{payref}`,
 * sending `{action: 'wait-pay', payid}` on open. `{payment: 'ok'}` calls onPaid; every other frame is only
 * logged (spec §8), though a settled failure is also reported so the page can show it. While still waiting, a
 * closed socket is reopened with a growing delay; the object answers at once when the payment settled meanwhile.
 */
import { useEffect, useRef } from "react";
import { parsePaymentFrame, paymentSocketPath, type PaymentClientFrame } from "../../shared/payment-protocol";

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 15_000;

export function usePaymentWait(
  wsUrl: string | undefined,
  payref: string,
  handlers: { onPaid: () => void; onFailed: () => void },
) {
  // The latest handlers without reopening the socket when the page re-renders.
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!wsUrl) return;
    let done = false;
    let retry = FIRST_RETRY_MS;
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const ws = new WebSocket(`${wsUrl}${paymentSocketPath(payref)}`);
      socket = ws;
      ws.onopen = () => {
        retry = FIRST_RETRY_MS;
        const frame: PaymentClientFrame = { action: "wait-pay", payid: payref };
        ws.send(JSON.stringify(frame));
      };
      ws.onmessage = (event) => {
        const frame = parsePaymentFrame(String(event.data));
        if (!frame) {
          console.info("Okänt betalningsbesked:", event.data);
          return;
        }
        if ("payment" in frame && frame.payment === "ok") {
          done = true;
          latest.current.onPaid();
          return;
        }
        console.info("Betalningsbesked:", frame);
        if ("payment" in frame) {
          done = true;
          latest.current.onFailed();
        }
      };
      ws.onclose = () => {
        if (done) return;
        timer = setTimeout(connect, retry);
        retry = Math.min(retry * 2, MAX_RETRY_MS);
      };
    };
    connect();

    return () => {
      done = true;
      clearTimeout(timer);
      socket?.close(1000);
    };
  }, [wsUrl, payref]);
}
