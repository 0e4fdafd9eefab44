/**
 * The results (admin spec): BIB (the name where a runner has no bib), Resultat (mm:ss.fff) and +- to the first
 * finisher, the last only on screens wider than 500 px (race-day.css); an undo column while the race runs (the
 * undo waits a few seconds in an undo bar). Taps this device has not got through yet are in their place already,
 * marked as not sent.
 */
import { Button } from "../../components/ui/button";
import { fullName, type ResultRow } from "./race-view";

export function ResultsTable({ rows, onUndo }: { rows: readonly ResultRow[]; onUndo?: (row: ResultRow) => void }) {
  return (
    <section className="race-results" aria-labelledby="race-results-title">
      <h3 id="race-results-title">Resultat</h3>
      {rows.length === 0 ? (
        <p className="muted">Ingen i mål ännu.</p>
      ) : (
        <div className="table-scroll">
          <table className="table results-table">
            <thead>
              <tr>
                <th scope="col">BIB</th>
                <th scope="col">Resultat</th>
                <th scope="col" className="col-diff">
                  +-
                </th>
                {onUndo && (
                  <th scope="col">
                    <span className="visually-hidden">Ångra</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.runner.sort} className={row.runner.pending ? "is-pending" : undefined}>
                  <td className={row.byName ? "col-bib col-name" : "col-bib"} title={fullName(row.runner)}>
                    {row.bib}
                  </td>
                  <td className="col-result">
                    {row.result}
                    {row.runner.pending && <span className="pending-mark">ej skickad</span>}
                  </td>
                  <td className="col-diff">{row.diff}</td>
                  {onUndo && (
                    <td className="col-undo">
                      <Button
                        size="small"
                        variant="text"
                        aria-label={`Ångra målgång för ${fullName(row.runner)}`}
                        onClick={() => onUndo(row)}
                      >
                        Ångra
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
