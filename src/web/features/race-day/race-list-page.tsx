/**
 * /admin/edit-races: every race (admin spec, "Race list"), the newest race day first (this season's races lead),
 * each leading to its runners, and 'Lägg till lopp'. An ended race offers its results as the federation export
 * (GET /admin/api/export/friidrott.csv); a started or ended race its finishers' diplomas, one A4 page each, to print
 * (GET /admin/api/diplomas/{race}); the export is an organiser's (issue 43), the diplomas a volunteer's too. On a phone each race is two lines (race-day.css, `.stack-table`): the race and
 * its status, then its date, distance, start, export and diplomas, so nothing scrolls sideways.
 */
import { useState } from "react";
import { Link } from "react-router";
import { formatSwedishDateTime } from "../../../shared/stockholm";
import { Button } from "../../components/ui/button";
import { LoadState } from "../../components/ui/load-state";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useAdminRole } from "../../lib/config/get-config";
import { useRaces } from "./api/get-races";
import { CreateRaceForm } from "./create-race-form";
import { formatMeters, raceListOrder } from "./race-hub";
import { STATE_LABEL } from "./race-view";
import "./race-day.css";

export default function RaceListPage() {
  useDocumentTitle("Hantera tävlingar");
  const races = useRaces();
  const [adding, setAdding] = useState(false);
  const exports = useAdminRole() === "organiser";

  return (
    <section className="page race-day race-list">
      <h2>Hantera tävlingar</h2>
      <Button variant="primary" onClick={() => setAdding(true)}>
        Lägg till lopp
      </Button>
      <LoadState query={races} loading="Hämtar lopp …" />
      {races.data && (
        <div className="table-scroll">
          {/* Explicit roles: a phone lays the rows out as blocks, which would otherwise lose the table's semantics. */}
          <table className="table stack-table race-list-table" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  ID
                </th>
                <th scope="col" role="columnheader">
                  Datum
                </th>
                <th scope="col" role="columnheader">
                  Distans
                </th>
                <th scope="col" role="columnheader">
                  Startades
                </th>
                <th scope="col" role="columnheader">
                  Status
                </th>
                <th scope="col" role="columnheader">
                  Resultat
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {raceListOrder(races.data).map((r) => (
                <tr key={r.part} role="row">
                  <td className="nowrap stack-main" role="cell">
                    <Link to={`/admin/edit-races/${encodeURIComponent(r.part)}`}>{r.part}</Link>
                  </td>
                  <td className="nowrap stack-detail" role="cell">
                    {r.date}
                  </td>
                  <td className="nowrap stack-detail" role="cell">
                    {formatMeters(r.distance)}
                  </td>
                  <td className="nowrap stack-detail" role="cell" data-label="Startades">
                    {r.started === null ? "" : formatSwedishDateTime(r.started)}
                  </td>
                  <td className="stack-end race-status" role="cell">
                    {STATE_LABEL[r.state]}
                  </td>
                  <td className="nowrap stack-detail" role="cell">
                    {exports && r.state === "ended" && (
                      <a href={`/admin/api/export/friidrott.csv?race=${encodeURIComponent(r.part)}`} download>
                        Friidrottsexport
                      </a>
                    )}
                    {exports && r.state === "ended" && " · "}
                    {r.state !== "" && (
                      <a href={`/admin/api/diplomas/${encodeURIComponent(r.part)}`} target="_blank" rel="noopener">
                        Diplom
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent title="Lägg till lopp">
          <CreateRaceForm />
        </DialogContent>
      </Dialog>
    </section>
  );
}
