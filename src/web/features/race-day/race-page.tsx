/**
 * /admin/race/{id}: timing one race on a phone held in one hand (admin spec, "Race screen"). The controls for
 * the race's state, the results' status ('Preliminära'/'Officiella'), the review list, three modes (the runner
 * tiles: a bib before the start, a finish after it; rapid timing's 'Mål!'; 'Startnummer i målordning', both
 * rapid-panel.tsx), the results and the log. Presses never wait for the network: 'Starta', each finish and each
 * 'Mål!' are shown at once and sent by the tap queue (tap-queue-provider.tsx), which keeps them on the phone until
 * the server has them. Under the status line, one line says whether the phone is ready to work offline ('Klar att
 * användas utan nät') or that the race on screen is the phone's copy (features/race-day/offline-race.tsx). A lazy chunk.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import type { ReviewRecord, RunnerRecord } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { LoadState } from "../../components/ui/load-state";
import { useDocumentTitle } from "../../lib/use-document-title";
import { OfflineNotice, useOfflineRace } from "./offline-race";
import { OfflineLine } from "./offline-ready";
import { useAudit } from "./api/get-audit";
import { useEndRace } from "./api/end-race";
import { useRace } from "./api/get-race";
import { useReviews } from "./api/get-reviews";
import { useRapidTiming } from "./api/rapid-timing";
import { useResetRace } from "./api/reset-race";
import { useRestoreRunner } from "./api/restore-runner";
import { AuditLog } from "./audit-log";
import { BibDialog } from "./bib-dialog";
import { deviceId } from "../../lib/device-id";
import { NetworkStatus, useOnline } from "./network-status";
import { messageOf, RaceAlerts, useMessages } from "./race-alerts";
import { RaceControls } from "./race-controls";
import { PickupMarks } from "./pickup-marks";
import { BibKeypad, FinishButton, MainTimerChoice, ModeSwitch, SlotList, type TimingMode } from "./rapid-panel";
import { slotRows, timingDevices, type SlotRow } from "./rapid-view";
import { SlotDialog } from "./slot-dialog";
import { ResultsStatus } from "./results-status";
import { deviceLabel, deviceNumbers, runnersFromLog, type LogContext, type NamedRunner } from "./race-log";
import {
  isFinished,
  isWaiting,
  raceWithQueue,
  resultRows,
  runnerLabel,
  runnersWithTaps,
  tileAction,
  tileOrder,
  type ResultRow,
  type RunnerView,
} from "./race-view";
import { RefusedTaps } from "./refused-taps";
import { RerecordDialog, type Rerecord } from "./rerecord-dialog";
import { ResultsTable } from "./results-table";
import { ReviewList } from "./review-list";
import { RunnerMenu } from "./runner-menu";
import { RunnerTiles } from "./runner-tiles";
import { useRaceQueue } from "./tap-queue-provider";
import { CameraSwitch, useFinishPhotos } from "./finish-photos";
import { bibEntryAt, foreignCount, knownItems, makeTapId } from "./tap-queue";
import { addUndo, cancelUndo, nextDue, splitDue, undoingSorts, type PendingUndo } from "./undo-bar";
import { useRaceSocket } from "./use-race-socket";
import "./race-day.css";

export default function RacePage() {
  const { id = "" } = useParams();
  // A fresh screen per race: its socket, clock samples and undo bar belong to that race alone.
  return <RaceScreen key={id} raceId={id} />;
}

function RaceScreen({ raceId }: { raceId: string }) {
  useDocumentTitle(raceId);
  const socket = useRaceSocket(raceId);
  const race = useRace(raceId, { live: true });
  const reviewData = useReviews(raceId).data;
  const reviews = useMemo(() => reviewData ?? [], [reviewData]);
  const online = useOnline();
  const offline = useOfflineRace(raceId, race, socket.status === "socket ansluten");
  const { messages, report, clear } = useMessages();
  const queue = useRaceQueue(raceId);
  const photos = useFinishPhotos(raceId, queue, report);
  const { onOpen } = socket;
  const { flush, onResult } = queue;
  useEffect(() => onOpen(() => flush()), [onOpen, flush]);
  useEffect(
    () =>
      onResult((_raceId, _item, result) => {
        if (result.kind === "review") report(result.message, "info");
        else if (result.kind === "sent" && result.message) report(result.message, "info");
        // A refusal is shown where the refused press waits (RefusedTaps), with the server's words.
      }),
    [onResult, report],
  );

  const end = useEndRace();
  const reset = useResetRace();
  const restore = useRestoreRunner();
  const [bibSort, setBibSort] = useState<string | null>(null);
  const [menuSort, setMenuSort] = useState<string | null>(null);
  const [rerecord, setRerecord] = useState<Rerecord | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  const [thisDevice] = useState(deviceId);
  // The taps and typed bibs without the photos: a Målfoto record (three a press with the camera on) does not render
  // this screen again; the photos are read where they are shown (finish-photos.tsx `useTapPhotos`).
  const timing = useRapidTiming(raceId);
  const [mode, setMode] = useState<TimingMode>(() => storedMode(raceId));
  const chooseMode = (next: TimingMode) => {
    setMode(next);
    storeMode(raceId, next);
  };
  const [slotKey, setSlotKey] = useState<string | null>(null);
  const timers = useMemo(() => timingDevices(timing), [timing]);

  // The log also numbers the devices the review list and two timers name, so it is read when they name any.
  const audit = useAudit(raceId, logOpen || reviews.length > 0 || timers.length > 1);
  const devices = useMemo(() => deviceNumbers(audit.data ?? []), [audit.data]);
  const missingDevices = [...reviews.map((r) => r.device), ...(timers.length > 1 ? timers : [])]
    .filter((d): d is string => !!d && d !== thisDevice && !devices.has(d))
    .join(" ");
  const { refetch: refetchAudit, isFetching: auditFetching } = audit;
  useEffect(() => {
    if (missingDevices && !auditFetching) void refetchAudit();
    // Once per new set of devices the log has not numbered yet (not again when a fetch ends).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose: not again when a fetch ends (above).
  }, [missingDevices]);

  const snapshot = race.data;
  const runners = useMemo(() => (snapshot ? (snapshot.slice(1) as RunnerRecord[]) : []), [snapshot]);
  const latestRunners = useRef(runners);
  useEffect(() => {
    latestRunners.current = runners;
  });

  // ——— 'Ångra' with an undo bar: sent only when the bar runs out ———
  const [undos, setUndos] = useState<PendingUndo[]>([]);
  const { cancelRunner } = queue;
  const commitUndo = useCallback(
    (sort: string) => {
      cancelRunner(sort);
      // A finish only this device knew about is undone by forgetting the tap; one the server has needs the call.
      if (latestRunners.current.find((r) => r.sort === sort)?.finished != null) {
        restore.mutate({ raceId, sort }, { onError: (err) => report(messageOf(err)) });
      }
    },
    [cancelRunner, raceId, report, restore],
  );
  const pendingUndos = useRef(undos);
  const latestCommit = useRef(commitUndo);
  useEffect(() => {
    pendingUndos.current = undos;
    latestCommit.current = commitUndo;
  });
  useEffect(() => {
    const due = nextDue(undos);
    if (due === null) return;
    const timer = setTimeout(
      () => {
        const { due: now, waiting } = splitDue(pendingUndos.current, Date.now());
        setUndos(waiting);
        now.forEach((u) => latestCommit.current(u.sort));
      },
      Math.max(0, due - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [undos]);
  // Leaving the screen does what the bar would have done.
  useEffect(() => () => pendingUndos.current.forEach((u) => latestCommit.current(u.sort)), []);

  const undoing = useMemo(() => undoingSorts(undos), [undos]);
  const items = queue.queue.items;
  const view = useMemo(() => runnersWithTaps(runners, items, undoing), [runners, items, undoing]);
  const runnerById = useMemo(() => new Map(runners.map((r) => [r.id, r])), [runners]);
  const logContext = useMemo((): LogContext => {
    const named = new Map<string, NamedRunner>(runnersFromLog(audit.data ?? []));
    for (const r of runners) named.set(r.id, r);
    return { runners: named, reviews: new Map(reviews.map((r) => [r.id, r])), devices, thisDevice };
  }, [audit.data, runners, reviews, devices, thisDevice]);

  // The merged slots, as the race object numbers them (a pending 'Starta' changes nothing they depend on).
  const raceRecord = snapshot?.[0];
  const slots = useMemo(
    () => (raceRecord ? slotRows(raceRecord, timing, runners, items, thisDevice) : []),
    [raceRecord, timing, runners, items, thisDevice],
  );

  const known = knownItems(queue.queue);
  const labelOfSort = (sort: string) => {
    const r = runners.find((x) => x.sort === sort);
    return r ? runnerLabel(r) : "";
  };
  const unsentFinishes = known.filter((i) => i.kind === "finish" || i.kind === "rapid").length;
  const unsentStart = known.some((i) => i.kind === "start");
  const unsentBibCount = known.filter((i) => i.kind === "bib-entry").length;

  const header = (
    <>
      <p className="race-back">
        <Link to="/admin/race">← Alla lopp</Link>
      </p>
      <h2 className="race-title">{raceId}</h2>
      <div className="race-status-line">
        <p className="socket-status" role="status">
          {socket.status}
        </p>
        <NetworkStatus />
        <p className="unsent" role="status">
          {[
            unsentStart && "Start ej skickad",
            unsentFinishes > 0 && `Ej skickade måltider: ${unsentFinishes}`,
            unsentBibCount > 0 && `Ej skickade startnummer: ${unsentBibCount}`,
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
      </div>
      <OfflineLine raceId={raceId} copy={offline} />
      <OfflineNotice {...offline} />
      <RaceAlerts messages={messages} onClear={clear} />
      <RefusedTaps
        items={known}
        foreign={foreignCount(queue.queue)}
        runnerLabel={labelOfSort}
        onRetry={() => queue.flush({ includeRefused: true })}
        onDiscard={queue.discard}
      />
    </>
  );

  if (!snapshot) {
    return (
      <section className="page race-day race-screen">
        {header}
        {race.isError ? <LoadState query={race} loading="" /> : <p role="status">Hämtar loppet …</p>}
      </section>
    );
  }

  const raceView = raceWithQueue(snapshot[0], items);
  const slotByKey = (key: string | null): SlotRow | null => slots.find((r) => r.key === key) ?? null;
  const labelOfDevice = (device: string) => deviceLabel(device, { devices, thisDevice });
  const rows = resultRows(raceView.started, view);
  const finished = view.filter(isFinished).length;
  const canEnd = view.every((r) => !isWaiting(r)) && known.length === 0;
  const runnerBySort = (sort: string | null) => view.find((r) => r.sort === sort) ?? null;
  const labelOfReview = (review: ReviewRecord) => {
    const r = review.runnerId ? runnerById.get(review.runnerId) : undefined;
    if (r) return runnerLabel(r);
    if (review.name) return review.bib ? `${review.name} (${review.bib})` : review.name;
    return review.bib ? `Nr ${review.bib}` : "";
  };

  function press() {
    return { tap: makeTapId(), at: socket.serverNow(), device: thisDevice, err: socket.uncertainty() };
  }

  function tap(runner: RunnerView) {
    // The socket is how this phone hears of a start: without it, the race it knows as not started may be running.
    const offline = socket.status !== "socket ansluten" || !online;
    let shown = runner;
    if (undoing.has(runner.sort)) {
      // A tap during the undo bar: the undo is off, and the tap is a new time for a finished runner.
      setUndos((list) => cancelUndo(list, runner.sort));
      shown =
        runnersWithTaps(
          runners.filter((r) => r.sort === runner.sort),
          items,
        )[0] ?? runner;
    }
    switch (tileAction(raceView, shown, offline)) {
      case "bib":
        setBibSort(runner.sort);
        return;
      case "finish": {
        const pressedAt = performance.now();
        const made = press();
        queue.add({ kind: "finish", ...made, sort: runner.sort, rerecord: false });
        photos.keep(made.tap, pressedAt);
        navigator.vibrate?.(20);
        return;
      }
      case "confirm-rerecord":
        setRerecord({ runner: shown, previous: shown.finished!, ...press() });
        navigator.vibrate?.(20);
        return;
      case "none":
        return;
    }
  }

  function rapidPress(pressedAt: number) {
    const made = press();
    // The tap first: its moment and its place in the queue never wait for the camera.
    queue.add({ kind: "rapid", ...made });
    photos.keep(made.tap, pressedAt);
    navigator.vibrate?.(20);
  }

  function undo(row: ResultRow) {
    setUndos((list) => addUndo(list, row.runner.sort, runnerLabel(row.runner), Date.now()));
  }

  return (
    <section className={`page race-day race-screen${mode === "rapid" ? " race-screen-rapid" : ""}`}>
      {header}
      <RaceControls
        race={raceView}
        finished={finished}
        canEnd={canEnd}
        serverNow={socket.serverNow}
        busy={end.isPending ? "end" : reset.isPending ? "reset" : null}
        onStart={() => queue.add({ kind: "start", ...press() })}
        onEnd={() => end.mutate(raceId, { onError: (err) => report(messageOf(err)) })}
        onReset={(word) =>
          reset.mutateAsync({ raceId, confirm: word }).then(
            () => null,
            (err: unknown) => messageOf(err),
          )
        }
      />
      <PickupMarks raceId={raceId} race={raceView} runners={view} onDone={(text) => report(text, "info")} />
      <ResultsStatus raceId={raceId} race={raceView} openReviews={reviews.length} onError={(m) => report(m)} />
      <ReviewList
        raceId={raceId}
        reviews={reviews}
        runnerLabel={labelOfReview}
        deviceLabel={(device) => deviceLabel(device, { devices, thisDevice })}
        onError={(message) => report(message)}
        photoTaps={(review) => [review.id, ...(slotByKey(review.slot ?? null)?.taps ?? [])]}
      />
      <ModeSwitch mode={mode} onChange={chooseMode} />
      <CameraSwitch raceId={raceId} photos={photos} onInfo={(text) => report(text, "info")} />
      {mode === "tiles" && <RunnerTiles runners={tileOrder(view)} onTap={tap} onMenu={(r) => setMenuSort(r.sort)} />}
      {mode === "bibs" && (
        <BibKeypad
          raceId={raceId}
          rapid={timing}
          rows={slots}
          started={raceView.started}
          queued={items}
          onEnter={(bib) =>
            queue.add({ kind: "bib-entry", ...press(), at: bibEntryAt(queue.queue, socket.serverNow()), bib })
          }
          onTakeOut={queue.discard}
          onError={(message) => report(message)}
        />
      )}
      {mode !== "tiles" && (
        <section className="rapid-slots" aria-labelledby="rapid-slots-title">
          <h3 id="rapid-slots-title">Måltider ({slots.length})</h3>
          <MainTimerChoice
            raceId={raceId}
            race={raceView}
            devices={timers}
            deviceLabel={labelOfDevice}
            onError={(message) => report(message)}
          />
          <SlotList
            rows={slots}
            started={raceView.started}
            deviceLabel={labelOfDevice}
            showDevices={timers.length > 1}
            onSlot={(row) => setSlotKey(row.key)}
          />
        </section>
      )}
      {mode === "rapid" && raceView.state !== "ended" && <FinishButton count={slots.length} onPress={rapidPress} />}
      <SlotDialog
        raceId={raceId}
        row={slotByKey(slotKey)}
        started={raceView.started}
        runners={view}
        onClose={() => setSlotKey(null)}
        onError={(message) => report(message)}
        photoTaps={slotByKey(slotKey)?.taps}
      />
      <ResultsTable rows={rows} onUndo={raceView.state === "started" ? undo : undefined} />
      <AuditLog
        raceId={raceId}
        audit={audit}
        open={logOpen}
        onOpenChange={setLogOpen}
        context={logContext}
        onError={(message) => report(message)}
      />
      <BibDialog raceId={raceId} runner={runnerBySort(bibSort)} onClose={() => setBibSort(null)} />
      <RunnerMenu
        race={snapshot[0]}
        runner={runnerBySort(menuSort)}
        onClose={() => setMenuSort(null)}
        onBib={(r) => setBibSort(r.sort)}
      />
      <RerecordDialog
        rerecord={rerecord}
        started={raceView.started}
        onClose={() => setRerecord(null)}
        onConfirm={(r) => {
          const { tap, at, device, err } = r;
          queue.add({ kind: "finish", tap, at, device, err, sort: r.runner.sort, rerecord: true });
          setRerecord(null);
        }}
      />
      {undos.length > 0 && (
        <div className="undo-bar" role="status">
          {undos.map((u) => (
            <p key={u.sort} className="undo-item">
              <span>{u.label} tillbaka bland de väntande.</span>
              <Button size="small" variant="text" onClick={() => setUndos((list) => cancelUndo(list, u.sort))}>
                Ångra
              </Button>
            </p>
          ))}
        </div>
      )}
    </section>
  );
}

const MODE_KEY = "race-day:mode:";

/** The timing mode a phone was in for this race (a reload keeps the volunteer where they were). */
function storedMode(raceId: string): TimingMode {
  try {
    const stored = window.localStorage.getItem(MODE_KEY + raceId);
    return stored === "rapid" || stored === "bibs" ? stored : "tiles";
  } catch {
    return "tiles";
  }
}

function storeMode(raceId: string, mode: TimingMode): void {
  try {
    window.localStorage.setItem(MODE_KEY + raceId, mode);
  } catch {
    // Private mode without storage: the mode lasts as long as the page.
  }
}
