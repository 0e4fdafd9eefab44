/**
 * A tap on a finished (green) tile asks before it moves a time: the old and the new time side by side, and the
 * new one is the moment of the tap, whenever the volunteer confirms. 'Behåll' (or closing) changes nothing.
 */
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { finishText, runnerLabel, type RunnerView } from "./race-view";

export interface Rerecord {
  runner: RunnerView;
  /** The finish the tile showed. */
  previous: number;
  /** The tap as it was made: its id, its moment on the server's clock, the device, the clock's uncertainty. */
  tap: string;
  at: number;
  device: string;
  err?: number;
}

export function RerecordDialog({
  rerecord,
  started,
  onConfirm,
  onClose,
}: {
  rerecord: Rerecord | null;
  started: number | null;
  onConfirm: (rerecord: Rerecord) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={rerecord !== null} onOpenChange={(open) => !open && onClose()}>
      {rerecord && (
        <DialogContent title={`Ny tid för ${runnerLabel(rerecord.runner)}?`} className="rerecord-dialog">
          <dl className="rerecord-times">
            <div>
              <dt>Nuvarande tid</dt>
              <dd>{finishText(started, rerecord.previous)}</dd>
            </div>
            <div>
              <dt>Ny tid</dt>
              <dd>{finishText(started, rerecord.at)}</dd>
            </div>
          </dl>
          <div className="race-form-actions">
            <Button variant="primary" onClick={() => onConfirm(rerecord)}>
              Ersätt tiden
            </Button>
            <Button onClick={onClose}>Behåll</Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
