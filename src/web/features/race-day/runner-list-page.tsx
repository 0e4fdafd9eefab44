/** /admin/edit-races/{id}: a race's runners (admin spec, "Runner list"), each editable, and 'Lägg till deltagare'. */
import { useState } from "react";
import { Link, useParams } from "react-router";
import type { RunnerRecord } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { LoadState } from "../../components/ui/load-state";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useRace } from "./api/get-race";
import { bibText, fullName, tileOrder } from "./race-view";
import { RunnerForm } from "./runner-form";
import "./race-day.css";

type Editing = { kind: "add" } | { kind: "edit"; runner: RunnerRecord } | null;

export default function RunnerListPage() {
  const { id = "" } = useParams();
  useDocumentTitle(`Deltagare ${id}`);
  const race = useRace(id);
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  return (
    <section className="page race-day runner-list">
      <p className="race-back">
        <Link to="/admin/edit-races">← Alla lopp</Link>
      </p>
      <h2>{id}</h2>
      <Button variant="primary" onClick={() => setEditing({ kind: "add" })}>
        Lägg till deltagare
      </Button>
      <LoadState query={race} loading="Hämtar deltagare …" />
      {race.data && race.data.length === 1 && <p className="muted">Inga deltagare ännu.</p>}
      {race.data && race.data.length > 1 && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">BIB</th>
                <th scope="col">Förnamn</th>
                <th scope="col">Efternamn</th>
                <th scope="col">Förening</th>
                <th scope="col">Grupp</th>
                <th scope="col">Ålder</th>
              </tr>
            </thead>
            <tbody>
              {tileOrder(race.data.slice(1) as RunnerRecord[]).map((r) => (
                <tr key={r.sort}>
                  <td>
                    <Button
                      size="small"
                      aria-label={`ändra ${fullName(r)}`}
                      onClick={() => setEditing({ kind: "edit", runner: r })}
                    >
                      ändra
                    </Button>
                  </td>
                  <td>{bibText(r.bib)}</td>
                  <td>{r.firstname}</td>
                  <td>{r.lastname}</td>
                  <td>{r.company}</td>
                  <td>{r.group}</td>
                  <td>{r.age}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && close()}>
        {editing && (
          <DialogContent title={editing.kind === "add" ? "Lägg till deltagare" : `Ändra ${fullName(editing.runner)}`}>
            <RunnerForm
              key={editing.kind === "add" ? "add" : editing.runner.sort}
              raceId={id}
              runner={editing.kind === "edit" ? editing.runner : undefined}
              onDone={close}
            />
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}
