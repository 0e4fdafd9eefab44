/** The race's audit trail ('Logg'): every change, who made it, from which device and when. Loaded when opened. */
import { useState } from "react";
import type { RaceAuditEvent } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { useAudit } from "./api/get-audit";
import { payloadSummary, stockholmClockTime } from "./race-view";

export function AuditLog({ raceId }: { raceId: string }) {
  const [open, setOpen] = useState(false);
  const audit = useAudit(raceId, open);

  return (
    <details className="race-log" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Logg</summary>
      {audit.isPending && open && <p role="status">Hämtar logg …</p>}
      {audit.isError && (
        <p className="alert alert-error" role="alert">
          {audit.error.message}
        </p>
      )}
      {audit.data && <AuditTable events={audit.data} />}
      {open && (
        <Button size="small" loading={audit.isFetching} onClick={() => void audit.refetch()}>
          Uppdatera
        </Button>
      )}
    </details>
  );
}

function AuditTable({ events }: { events: readonly RaceAuditEvent[] }) {
  if (events.length === 0) return <p className="muted">Inga händelser ännu.</p>;
  return (
    <div className="table-scroll">
      <table className="table log-table">
        <thead>
          <tr>
            <th scope="col">Tid</th>
            <th scope="col">Vem</th>
            <th scope="col">Enhet</th>
            <th scope="col">Vad</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.seq}>
              <td>{Number.isFinite(e.at) ? stockholmClockTime(e.at) : ""}</td>
              <td>{e.actor}</td>
              <td>{e.device ?? ""}</td>
              <td>
                <strong>{e.type}</strong> {payloadSummary(e.payload)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
