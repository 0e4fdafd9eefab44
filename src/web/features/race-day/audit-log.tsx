/**
 * The race's audit trail ('Logg') as Swedish sentences: when, what (with the device at the end) and who. Loaded
 * when opened. A finish that replaced a time has 'Återställ', which gives the runner the replaced time back in one
 * action (audited too). A row about a tap (a finish tile's, a 'Mål!' press, a tap sent to 'Att granska') shows the
 * tap's Målfoto as the race knows it now (finish-photos.tsx: the nearest frame, tapped to enlarge all three); a
 * photo that arrives or is deleted while the log is open shows or goes without a reload, as the socket says.
 */
import type { UseQueryResult } from "@tanstack/react-query";
import type { RaceAuditEvent } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { useRestoreTime } from "./api/restore-time";
import { PhotoStrip, useTapPhotos } from "./finish-photos";
import { messageOf } from "./race-alerts";
import { logLines, type LogContext } from "./race-log";

export interface AuditLogProps {
  raceId: string;
  audit: UseQueryResult<RaceAuditEvent[]>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  context: LogContext;
  onError: (message: string) => void;
}

export function AuditLog({ raceId, audit, open, onOpenChange, context, onError }: AuditLogProps) {
  return (
    <details className="race-log" open={open} onToggle={(e) => onOpenChange(e.currentTarget.open)}>
      <summary>Logg</summary>
      {open && audit.isPending && <p role="status">Hämtar logg …</p>}
      {audit.isError && (
        <p className="alert alert-error" role="alert">
          {audit.error.message}
        </p>
      )}
      {open && audit.data && <LogList raceId={raceId} events={audit.data} context={context} onError={onError} />}
      {open && (
        <Button size="small" loading={audit.isFetching} onClick={() => void audit.refetch()}>
          Uppdatera
        </Button>
      )}
    </details>
  );
}

function LogList({
  raceId,
  events,
  context,
  onError,
}: {
  raceId: string;
  events: readonly RaceAuditEvent[];
  context: LogContext;
  onError: (message: string) => void;
}) {
  const restore = useRestoreTime();
  if (events.length === 0) return <p className="muted">Inga händelser ännu.</p>;
  return (
    <ol className="log-lines">
      {logLines(events, context).map((line) => (
        <li key={line.seq} className="log-line">
          <span className="log-time">{line.time}</span>
          <span className="log-text">{line.text}</span>
          <span className="log-actor">{line.actor}</span>
          {line.restoreSeq !== undefined && (
            <Button
              size="small"
              className="log-restore"
              loading={restore.isPending && restore.variables?.seq === line.restoreSeq}
              disabled={restore.isPending}
              aria-label={`Återställ tiden före: ${line.text}`}
              onClick={() =>
                restore.mutate({ raceId, seq: line.restoreSeq! }, { onError: (err) => onError(messageOf(err)) })
              }
            >
              Återställ
            </Button>
          )}
          {line.tap !== undefined && <LinePhotos raceId={raceId} tap={line.tap} />}
        </li>
      ))}
    </ol>
  );
}

/** The photos the race keeps of the row's tap (none: the row shows none); rendered again only when they change. */
function LinePhotos({ raceId, tap }: { raceId: string; tap: string }) {
  const photos = useTapPhotos(raceId, [tap]);
  if (photos.length === 0) return null;
  return (
    <div className="log-photos">
      <PhotoStrip raceId={raceId} photos={photos} />
    </div>
  );
}
