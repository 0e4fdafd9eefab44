/**
 * /admin/race: one button per race still to run (admin spec, "Race hub"), coloured by state and saying it in
 * words too, kept live by the hub socket. A lazy chunk inside the admin shell.
 */
import { stockholmDate } from "../../../shared/stockholm";
import { ButtonLink } from "../../components/ui/button";
import { LoadState } from "../../components/ui/load-state";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useServerClock } from "../../lib/config/server-clock";
import { useRaces } from "./api/get-races";
import { NetworkStatus } from "./network-status";
import { formatMeters, hubRaces } from "./race-hub";
import { STATE_LABEL } from "./race-view";
import { useHubSocket } from "./use-race-socket";
import "./race-day.css";

export default function RaceHubPage() {
  useDocumentTitle("Lopp");
  const socket = useHubSocket();
  const races = useRaces();
  const today = stockholmDate(useServerClock().now());
  const shown = races.data ? hubRaces(races.data, today) : [];

  return (
    <section className="page race-day race-hub">
      <h2>Lopp</h2>
      <div className="race-status-line">
        <p className="socket-status" role="status">
          {socket.status}
        </p>
        <NetworkStatus />
      </div>
      <LoadState query={races} loading="Hämtar lopp …" />
      {races.data && shown.length === 0 && <p>Inga kommande lopp.</p>}
      {shown.length > 0 && (
        <nav aria-label="Lopp att tajma">
          <ul className="hub-races">
            {shown.map((r) => (
              <li key={r.part}>
                <ButtonLink
                  to={`/admin/race/${encodeURIComponent(r.part)}`}
                  className={`hub-race state-${r.state || "new"}`}
                >
                  <span className="hub-race-id">{r.part}</span>
                  <span className="hub-race-facts">
                    {r.date} · {formatMeters(r.distance)}
                  </span>
                  <span className="hub-race-state">{STATE_LABEL[r.state]}</span>
                </ButtonLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </section>
  );
}
