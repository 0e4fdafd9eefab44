/**
 * "Now" as the server sees it (DESIGN.md §1: a wrong phone clock must not show a closed registration as open).
 * Rules in the browser take their time from here, never from a bare Date.now().
 */
import { useMemo } from "react";
import type { Clock } from "../../../shared/clock";
import { useConfig } from "./get-config";

/** A clock following the server; before the config arrives it falls back to the device clock. */
export function useServerClock(): Clock {
  const offset = useConfig().data?.serverOffsetMs ?? 0;
  return useMemo(() => ({ now: () => Date.now() + offset }), [offset]);
}
