/**
 * /admin/edit-races/{id}: a race's runners (admin spec, "Runner list"), each editable, and 'Lägg till deltagare'.
 * On a phone each runner is two lines (race-day.css, `.stack-table`): 'ändra', bib and name, then club, group and
 * age, so nothing scrolls sideways.
 */
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
          {/* Explicit roles: a phone lays the rows out as blocks, which would otherwise lose the table's semantics. */}
          <table className="table stack-table runner-list-table" role="table">
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  ID
                </th>
                <th scope="col" role="columnheader">
                  BIB
                </th>
                <th scope="col" role="columnheader">
                  Förnamn
                </th>
                <th scope="col" role="columnheader">
                  Efternamn
                </th>
                <th scope="col" role="columnheader">
                  Förening
                </th>
                <th scope="col" role="columnheader">
                  Grupp
                </th>
                <th scope="col" role="columnheader">
                  Ålder
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {tileOrder(race.data.slice(1) as RunnerRecord[]).map((r) => (
                <tr key={r.sort} role="row">
                  <td className="stack-lead" role="cell">
                    <Button
                      size="small"
                      aria-label={`ändra ${fullName(r)}`}
                      onClick={() => setEditing({ kind: "edit", runner: r })}
                    >
                      ändra
                    </Button>
                  </td>
                  <td className="stack-lead runner-bib" role="cell">
                    {bibText(r.bib)}
                  </td>
                  <td className="stack-main" role="cell">
                    {r.firstname}
                  </td>
                  <td className="stack-main" role="cell">
                    {r.lastname}
                  </td>
                  <td className="stack-detail runner-club" role="cell">
                    {r.company}
                  </td>
                  <td className="stack-detail runner-group" role="cell">
                    {r.group}
                  </td>
                  <td className="stack-detail runner-age" role="cell" data-label="Ålder">
                    {r.age}
                  </td>
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
