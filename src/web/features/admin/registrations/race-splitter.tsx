/**
 * The race-splitter component at the top of the registrations screen, with the export button (spec: "A race-splitter
 * component is at the top", "An export button sits above the list"): the RaceSplitter participant list
 * (GET /admin/api/export2racesplitter) shown as text in a dialog (the spec's alert) with a download button, and a
 * download link for the season's full registrations CSV.
 */
import { useState } from "react";
import { SEASON } from "../../../../shared/season";
import { Button, buttonClass } from "../../../components/ui/button";
import { Dialog, DialogContent } from "../../../components/ui/dialog";
import { RACESPLITTER_DOWNLOAD_PATH, registrationsCsvPath, useRaceSplitterExport } from "./api/get-racesplitter-export";

export function RaceSplitter({ season }: { season: number }) {
  const [open, setOpen] = useState(false);
  const text = useRaceSplitterExport(open);
  const lines = text.data ? text.data.split(/\r?\n/).filter(Boolean).length : 0;

  return (
    <div className="race-splitter" role="group" aria-label="Export">
      <Button onClick={() => setOpen(true)}>Export till RaceSplitter</Button>
      <a className={buttonClass({ variant: "text" })} href={registrationsCsvPath(season)} download>
        Ladda ned alla anmälningar {season} (CSV)
      </a>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Export till RaceSplitter"
          description={`Betalda löpare ${SEASON.year}, en rad per löpare.`}
          className="race-splitter-dialog"
        >
          {text.isPending && <p role="status">Hämtar exporten …</p>}
          {text.isError && (
            <div className="alert alert-error" role="alert">
              <p>{text.error.message}</p>
              <Button size="small" onClick={() => void text.refetch()}>
                Försök igen
              </Button>
            </div>
          )}
          {text.data !== undefined && (
            <>
              <p className="muted">{Math.max(0, lines - 1)} löpare.</p>
              <pre className="race-splitter-text" tabIndex={0} aria-label="RaceSplitter-export">
                {text.data}
              </pre>
              <div className="dialog-actions">
                <a className={buttonClass({ variant: "primary" })} href={RACESPLITTER_DOWNLOAD_PATH} download>
                  Ladda ned CSV
                </a>
                <Button variant="text" onClick={() => setOpen(false)}>
                  Stäng
                </Button>
              </div>
            </>
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
