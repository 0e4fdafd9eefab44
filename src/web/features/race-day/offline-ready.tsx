/**
 * Whether this phone is ready to work offline on this race ('Klar att användas utan nät', issue 41), so a volunteer
 * knows before walking to the field. Ready means a reload with no signal opens the race as last known and takes
 * taps: the admin worker is active (it serves the page and its code from the phone: register-service-worker.ts),
 * and the two copies the screen draws from are on the phone: the config (the worker's copy) and this race
 * (race-copies.ts).
 *
 * Checked when the worker's state changes, when a copy of a race is saved or shown, and every CHECK_EVERY_MS while
 * not ready (the worker writes the config's copy when it installs and on each config answer that passes through it,
 * and tells nobody). A worker active without the config's copy (its install's own fetch of it found no signal) has
 * the config asked for again, through the worker, at most every ASK_CONFIG_EVERY_MS.
 *
 * The screen's offline line says it, or, while the race on screen is the phone's copy and the network may still
 * answer, which moment is shown (offline-race.tsx): one line that is always there, so nothing moves under a finger.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { ApiError } from "../../lib/api";
import { ADMIN_DATA_CACHE } from "../../sw/names";
import { configQueryOptions } from "../../lib/config/get-config";
import { copyLine, type OfflineRace } from "./offline-race";
import { loadRace, watchRaceCopies } from "./race-copies";
import { serviceWorkerState, watchServiceWorker } from "../../lib/register-service-worker";

const CHECK_EVERY_MS = 1_000;
const ASK_CONFIG_EVERY_MS = 5_000;

export type Readiness = "unknown" | "unsupported" | "preparing" | "no-network" | "ready";

const TEXTS: Record<Readiness, string> = {
  unknown: "",
  unsupported: "Kan inte användas utan nät i den här webbläsaren",
  preparing: "Förbereder för användning utan nät …",
  "no-network": "Inte klar att användas utan nät: väntar på nätet",
  ready: "Klar att användas utan nät",
};

interface Copies {
  config: boolean;
  race: boolean;
}

async function copiesOnPhone(raceId: string): Promise<Copies> {
  if (typeof caches === "undefined") return { config: false, race: false };
  const [config, race] = await Promise.all([
    caches.match("/api/config", { cacheName: ADMIN_DATA_CACHE }),
    loadRace(raceId),
  ]);
  return { config: config !== undefined, race: race !== null };
}

export function useOfflineReadiness(raceId: string): Readiness {
  const queryClient = useQueryClient();
  const worker = useSyncExternalStore(watchServiceWorker, () => serviceWorkerState("admin"));
  /** null until first looked at: the line says nothing rather than "not ready" for the moment that takes. */
  const [copies, setCopies] = useState<Copies | null>(null);
  const [configUnreachable, setConfigUnreachable] = useState(false);
  const ready = worker === "active" && copies !== null && copies.config && copies.race;

  useEffect(() => {
    if (ready || worker === "unsupported") return;
    let stopped = false;
    let askedAt = -Infinity;
    const check = async () => {
      const found = await copiesOnPhone(raceId).catch(() => ({ config: false, race: false }));
      if (stopped) return;
      setCopies((known) => (known?.config === found.config && known.race === found.race ? known : found));
      const controlled = navigator.serviceWorker?.controller != null;
      if (worker !== "active" || found.config || !controlled || Date.now() - askedAt < ASK_CONFIG_EVERY_MS) return;
      askedAt = Date.now();
      // Through the worker, which keeps the answer; the screens get it as any config answer.
      queryClient.fetchQuery({ ...configQueryOptions(), staleTime: 0 }).then(
        () => setConfigUnreachable(false),
        (err: unknown) => setConfigUnreachable(err instanceof ApiError && err.status === 0),
      );
    };
    void check();
    const timer = setInterval(() => void check(), CHECK_EVERY_MS);
    const unwatch = watchRaceCopies(() => void check());
    return () => {
      stopped = true;
      clearInterval(timer);
      unwatch();
    };
  }, [ready, worker, raceId, queryClient]);

  if (worker === "unsupported" || worker === "unknown") return worker;
  if (ready) return "ready";
  if (worker === "active" && copies === null) return "unknown";
  if (worker === "no-network" || (worker === "active" && configUnreachable)) return "no-network";
  return "preparing";
}

/** The race screen's offline line: the copy on screen while the network may still answer, else the readiness. */
export function OfflineLine({ raceId, copy }: { raceId: string; copy: OfflineRace }) {
  const readiness = useOfflineReadiness(raceId);
  const copyText = copyLine(copy);
  const state = copyText !== null ? "copy" : readiness;
  return (
    <p className="offline-line" data-state={state} role="status">
      {copyText ?? TEXTS[readiness]}
    </p>
  );
}
