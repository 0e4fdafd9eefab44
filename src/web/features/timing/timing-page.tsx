/**
 * /tidtagning (spec, public site: "A stopwatch utility page exists with Start/Stop, Nollställ, a split button
 * and a plus-1 counter"). A lazy chunk: visitors who never open it never download timing code.
 *
 * The rules live in stopwatch.ts; this screen only asks the clock for `now` when a button is pressed and when it
 * paints. The shown time is computed from the saved start on every animation frame, so when the phone wakes or
 * the tab comes back to the front it is right at once. The state is saved in localStorage on every change: a
 * reload (or a closed and reopened tab) keeps the watch running. Nothing here talks to the server, so once the
 * page has loaded it works offline; its own service worker (src/web/sw/worker/timing.ts) opens it again with no
 * connection. The first HTML is pre-rendered (at zero) like the other public pages.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { formatResult } from "../../../shared/time-format";
import { useDocumentTitle } from "../../lib/use-document-title";
import {
  createClock,
  elapsed,
  INITIAL,
  isRunning,
  laps,
  plusOne,
  reset,
  resetCount,
  restore,
  serialize,
  split,
  start,
  stop,
  STORAGE_KEY,
  type StopwatchState,
} from "./stopwatch";
// The page's styles travel inside the page (a <style> in its pre-rendered HTML): a lazy chunk's stylesheet would
// only arrive after that HTML has painted, and the page would jump (Lighthouse saw CLS 0.21).
import timingCss from "./timing.css?inline";

// performance.now() restarts at 0 on every page load, so the saved start is a wall-clock (Date.now()) time: the
// clock ticks with performance.now() but is anchored on Date.now() (see createClock).
const clock = createClock({ monotonic: () => performance.now(), wall: () => Date.now() });

function load(): StopwatchState {
  try {
    return restore(localStorage.getItem(STORAGE_KEY));
  } catch {
    return INITIAL; // storage blocked (private mode, policy): the watch still works, it just isn't saved
  }
}

function save(state: StopwatchState): void {
  try {
    localStorage.setItem(STORAGE_KEY, serialize(state));
  } catch {
    // Storage full or blocked: nothing to do, the watch runs on in memory.
  }
}

/** The big time. Re-renders on every animation frame while running (browsers pause frames in the background). */
function TimeDisplay({ state }: { state: StopwatchState }) {
  const [now, setNow] = useState(clock);
  const running = isRunning(state);
  useEffect(() => {
    setNow(clock());
    if (!running) return;
    let frame = requestAnimationFrame(function paint() {
      setNow(clock());
      frame = requestAnimationFrame(paint);
    });
    return () => cancelAnimationFrame(frame);
  }, [running, state]);
  // role="timer" is not announced as it changes; stops and splits are told through the live region instead.
  return (
    <p className="stopwatch-time" role="timer" aria-label="Tid" data-running={running || undefined}>
      {formatResult(elapsed(state, now))}
    </p>
  );
}

export default function TimingPage() {
  useDocumentTitle("Tidtagning");
  useEffect(() => {
    void import("../../lib/register-service-worker").then((m) => m.registerServiceWorker("timing"));
  }, []);
  // The page is pre-rendered with the watch at zero, and hydration must see that same first state; the saved watch
  // is read right after (before the browser paints when the page was not pre-rendered).
  // Until then (the pre-rendered HTML, before the script has run) Start and +1 are disabled: a tap on a button
  // that does nothing yet would be a lost start.
  const [state, setState] = useState<StopwatchState>(INITIAL);
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the pre-rendered HTML has no stored stopwatch: it is read from the phone after hydration, before paint.
    setState(load());
    setReady(true);
  }, []);
  const [announcement, setAnnouncement] = useState("");
  const running = isRunning(state);
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    save(state);
  }, [state]);

  // Another tab of the same site changed the watch: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEY) setState(restore(e.newValue));
    };
    addEventListener("storage", onStorage);
    return () => removeEventListener("storage", onStorage);
  }, []);

  const startStop = useCallback(() => {
    const now = clock();
    if (isRunning(state)) {
      const next = stop(state, now);
      setState(next);
      setAnnouncement(`Stoppad på ${formatResult(elapsed(next, now))}`);
    } else {
      setState(start(state, now));
      setAnnouncement("Startad");
    }
  }, [state]);

  const takeSplit = useCallback(() => {
    const next = split(state, clock());
    setState(next);
    setAnnouncement(`Mellantid ${next.splits.length}: ${formatResult(next.splits.at(-1) ?? 0)}`);
  }, [state]);

  const zero = !running && state.accumulated === 0 && state.splits.length === 0;
  const rows = laps(state).reverse();

  return (
    <section className="page stopwatch">
      <style>{timingCss}</style>
      <h1>Tidtagning</h1>

      <div className="stopwatch-face">
        <TimeDisplay state={state} />
        <p className="stopwatch-status">{running ? "Går" : zero ? "Redo" : "Stoppad"}</p>
      </div>

      <div className="stopwatch-controls">
        <button
          type="button"
          className={`btn stopwatch-btn stopwatch-startstop ${running ? "is-running" : "btn-primary"}`}
          onClick={startStop}
          disabled={!ready}
        >
          {running ? "Stop" : "Start"}
        </button>
        <button type="button" className="btn btn-secondary stopwatch-btn" onClick={takeSplit} disabled={!running}>
          Mellantid
        </button>
        <button
          type="button"
          className="btn stopwatch-btn"
          onClick={() => {
            setState(reset(state));
            setAnnouncement("Nollställd");
          }}
          disabled={running || zero}
        >
          Nollställ
        </button>
      </div>

      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>

      <section className="stopwatch-counter" aria-labelledby="raknare">
        <h2 id="raknare">Räknare</h2>
        <div className="stopwatch-counter-row">
          <output className="stopwatch-count" aria-live="polite" aria-label="Antal">
            {state.count}
          </output>
          <button
            type="button"
            className="btn btn-primary stopwatch-btn stopwatch-plus"
            onClick={() => setState(plusOne(state))}
            disabled={!ready}
          >
            +1
          </button>
        </div>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setState(resetCount(state))}
          disabled={state.count === 0}
        >
          Nollställ räknaren
        </button>
      </section>

      <section className="stopwatch-splits" aria-labelledby="mellantider">
        <h2 id="mellantider">Mellantider</h2>
        {rows.length === 0 ? (
          <p className="muted">Tryck Mellantid medan klockan går.</p>
        ) : (
          <ol className="stopwatch-split-list">
            {rows.map(({ n, at, lap }) => (
              <li key={n}>
                <span className="stopwatch-split-n">
                  <span className="visually-hidden">Mellantid </span>
                  {n}
                </span>
                <span className="stopwatch-split-at">{formatResult(at)}</span>
                <span className="stopwatch-split-lap">
                  <span className="visually-hidden">varv </span>+{formatResult(lap)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </section>
  );
}
