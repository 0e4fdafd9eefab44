/**
 * Polls /verify for one payment: first after 2 s, each further delay ×1.5 (spec §4, §9), until it settles or
 * fails, or until about three minutes have passed (then the page says so instead of spinning for ever).
 */
import { useEffect, useState } from "react";
import { verifyPayment, type VerifyOutcome } from "./api/verify-payment";
import { pollWaits } from "./poll-schedule";

export type PollState = "waiting" | "settled" | "logged-out" | "failed" | "timed-out";

function stateOf(outcome: VerifyOutcome): PollState | null {
  switch (outcome) {
    case "settled":
      return "settled";
    case "logged-out":
      return "logged-out";
    case "not-found":
    case "unusable":
      return "failed";
    case "waiting":
    case "retry":
      return null;
  }
}

/** `attempt` restarts the polling when it changes (the 'Försök igen' button). */
export function useVerifyPolling(id: string, attempt: number): PollState {
  const [state, setState] = useState<PollState>("waiting");

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waits = pollWaits();
    let next = 0;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a restarted poll (the "Försök igen" button) shows waiting again from its first request.
    setState("waiting");

    const schedule = () => {
      const wait = waits[next++];
      if (wait === undefined) {
        setState("timed-out");
        return;
      }
      timer = setTimeout(check, wait);
    };
    const check = async () => {
      try {
        const settled = stateOf(await verifyPayment(id, abort.signal));
        if (settled) setState(settled);
        else schedule();
      } catch {
        // Aborted: the page went away.
      }
    };
    schedule();

    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [id, attempt]);

  return state;
}
