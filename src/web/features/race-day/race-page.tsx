/**
 * /admin/race/{id}: timing one race on a phone held in one hand (admin spec, "Race screen"). The controls for
 * the race's state, the runner tiles (tap: a bib before the start, a finish after it), the results and the log.
 * Finish taps never wait for the network: each is shown at once and sent by the tap queue. A lazy chunk.
 */
import { useEffect, useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import type { RunnerRecord } from "../../../shared/race-protocol";
import { LoadState } from "../../components/ui/load-state";
import { useDocumentTitle } from "../../lib/use-document-title";
import { OfflineNotice, useOfflineRace } from "../offline/offline-race";
import { useEndRace } from "./api/end-race";
import { useRace } from "./api/get-race";
import { useResetRace } from "./api/reset-race";
import { useRestoreRunner } from "./api/restore-runner";
import { useStartRace } from "./api/start-race";
import { AuditLog } from "./audit-log";
import { BibDialog } from "./bib-dialog";
import { NetworkStatus } from "./network-status";
import { messageOf, RaceAlerts, useMessages } from "./race-alerts";
import { RaceControls } from "./race-controls";
import {
  isFinished,
  isWaiting,
  resultRows,
  runnersWithTaps,
  tileOrder,
  type ResultRow,
  type RunnerView,
} from "./race-view";
import { ResultsTable } from "./results-table";
import { RunnerMenu } from "./runner-menu";
import { RunnerTiles } from "./runner-tiles";
import { makeTapId } from "./tap-queue";
import { useRaceSocket } from "./use-race-socket";
import { useTapQueue } from "./use-tap-queue";
import "./race-day.css";

export default function RacePage() {
  const { id = "" } = useParams();
  // A fresh screen per race: its socket, clock samples and tap queue belong to that race alone.
  return <RaceScreen key={id} raceId={id} />;
}

function RaceScreen({ raceId }: { raceId: string }) {
  useDocumentTitle(raceId);
  const socket = useRaceSocket(raceId);
  const race = useRace(raceId, { live: true });
  const offline = useOfflineRace(raceId, race, socket.status === "socket ansluten");
  const { messages, report, clear } = useMessages();
  const queue = useTapQueue(raceId, report);
  const { onOpen } = socket;
  const { flush } = queue;
  useEffect(() => onOpen(flush), [onOpen, flush]);

  const start = useStartRace();
  const end = useEndRace();
  const reset = useResetRace();
  const restore = useRestoreRunner();
  const [bibSort, setBibSort] = useState<string | null>(null);
  const [menuSort, setMenuSort] = useState<string | null>(null);

  const snapshot = race.data;
  const view = useMemo(
    () => (snapshot ? runnersWithTaps(snapshot.slice(1) as RunnerRecord[], queue.taps) : []),
    [snapshot, queue.taps],
  );

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
          {queue.taps.length > 0 && `Ej skickade måltider: ${queue.taps.length}`}
        </p>
      </div>
      <OfflineNotice {...offline} />
      <RaceAlerts messages={messages} onClear={clear} />
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

  const [record, ...runners] = snapshot;
  const rows = resultRows(record.started, view);
  const finished = view.filter(isFinished).length;
  const canEnd = view.every((r) => !isWaiting(r)) && queue.taps.length === 0;
  const runnerBySort = (sort: string | null) => view.find((r) => r.sort === sort) ?? null;

  function tap(runner: RunnerView) {
    if (record.state === "") {
      setBibSort(runner.sort);
    } else if (record.state === "started") {
      queue.add({ tap: makeTapId(), sort: runner.sort, at: socket.serverNow(), rerecord: runner.finished !== null });
      navigator.vibrate?.(20);
    }
  }

  function undo(row: ResultRow) {
    const sort = row.runner.sort;
    queue.cancelRunner(sort);
    // A finish only this device knew about is undone by forgetting the tap; one the server has needs the call.
    if (runners.find((r) => r.sort === sort)?.finished != null) {
      restore.mutate({ raceId, sort }, { onError: (err) => report(messageOf(err)) });
    }
  }

  return (
    <section className="page race-day race-screen">
      {header}
      <RaceControls
        race={record}
        finished={finished}
        canEnd={canEnd}
        serverNow={socket.serverNow}
        busy={start.isPending ? "start" : end.isPending ? "end" : reset.isPending ? "reset" : null}
        onStart={() =>
          start.mutate(
            { raceId, tap: makeTapId(), at: socket.serverNow() },
            { onError: (err) => report(messageOf(err)) },
          )
        }
        onEnd={() => end.mutate(raceId, { onError: (err) => report(messageOf(err)) })}
        onReset={() =>
          reset.mutateAsync(raceId).then(
            () => {
              // Taps of the run that was just wiped must not be sent into the next one.
              queue.clear();
              return null;
            },
            (err: unknown) => messageOf(err),
          )
        }
      />
      <RunnerTiles runners={tileOrder(view)} onTap={tap} onMenu={(r) => setMenuSort(r.sort)} />
      <ResultsTable rows={rows} onUndo={record.state === "started" ? undo : undefined} />
      <AuditLog raceId={raceId} />
      <BibDialog raceId={raceId} runner={runnerBySort(bibSort)} onClose={() => setBibSort(null)} />
      <RunnerMenu
        race={record}
        runner={runnerBySort(menuSort)}
        onClose={() => setMenuSort(null)}
        onBib={(r) => setBibSort(r.sort)}
      />
    </section>
  );
}
