/**
 * /admin/edit-races: every race (admin spec, "Race list"), each leading to its runners, and 'Lägg till lopp'. An
 * ended race offers its results as the federation export (GET /admin/api/export/friidrott.csv).
 */
import { useState } from "react";
import { Link } from "react-router";
import { formatSwedishDateTime } from "../../../shared/stockholm";
import { Button } from "../../components/ui/button";
import { LoadState } from "../../components/ui/load-state";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useRaces } from "./api/get-races";
import { CreateRaceForm } from "./create-race-form";
import { formatMeters } from "./race-hub";
import { STATE_LABEL } from "./race-view";
import "./race-day.css";

export default function RaceListPage() {
  useDocumentTitle("Hantera tävlingar");
  const races = useRaces();
  const [adding, setAdding] = useState(false);

  return (
    <section className="page race-day race-list">
      <h2>Hantera tävlingar</h2>
      <Button variant="primary" onClick={() => setAdding(true)}>
        Lägg till lopp
      </Button>
      <LoadState query={races} loading="Hämtar lopp …" />
      {races.data && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Datum</th>
                <th scope="col">Distans</th>
                <th scope="col">Startades</th>
                <th scope="col">Status</th>
                <th scope="col">Resultat</th>
              </tr>
            </thead>
            <tbody>
              {races.data.map((r) => (
                <tr key={r.part}>
                  <td className="nowrap">
                    <Link to={`/admin/edit-races/${encodeURIComponent(r.part)}`}>{r.part}</Link>
                  </td>
                  <td className="nowrap">{r.date}</td>
                  <td className="nowrap">{formatMeters(r.distance)}</td>
                  <td className="nowrap">{r.started === null ? "" : formatSwedishDateTime(r.started)}</td>
                  <td>{STATE_LABEL[r.state]}</td>
                  <td className="nowrap">
                    {r.state === "ended" && (
                      <a href={`/admin/api/export/friidrott.csv?race=${encodeURIComponent(r.part)}`} download>
                        Friidrottsexport
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
