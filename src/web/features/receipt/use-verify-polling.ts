/**
 * Polls /verify for one payment: first after 2 s, each further delay ×1.5 (spec §4, §9), until it settles or
 * fails, or until about three minutes have passed (then the page says so instead of spinning for ever).
 */
import { useEffect, useState } from "react";
import { verifyPayment, type VerifyOutcome } from "./api/verify-payment";

export const FIRST_DELAY_MS = 2000;
export const DELAY_FACTOR = 1.5;
export const GIVE_UP_AFTER_MS = 3 * 60_000;

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
    let delay = FIRST_DELAY_MS;
    let waited = 0;
    setState("waiting");

    const schedule = () => {
      if (waited + delay > GIVE_UP_AFTER_MS) {
        setState("timed-out");
        return;
      }
      timer = setTimeout(check, delay);
      waited += delay;
      delay *= DELAY_FACTOR;
    };
    const check = async () => {
      try {
        const next = stateOf(await verifyPayment(id, abort.signal));
        if (next) setState(next);
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
