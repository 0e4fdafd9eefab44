/**
 * The confirmation an action that re-times other runners needs (retime.ts): the race's sentence ('Nr 733, 734 och
 * 735 får nya tider …'), then each runner with the old and the new time. 'Ändra tiderna' sends the action again
 * with that list; 'Avbryt' leaves everything as it is (the race changed nothing).
 */
import { useState } from "react";
import type { Retime, RetimeConfirm } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { messageOf } from "./race-alerts";
import { confirmationOf, retimeRows, retimesOf } from "./retime";

/** An action waiting for the organiser's yes: what the race said, and how to send it again confirmed. */
export interface PendingRetime {
  message: string;
  retimes: Retime[];
  send: (confirm: RetimeConfirm[]) => Promise<unknown>;
}

/**
 * A refused action's confirmation: `ask(err, send)` opens the dialog when the race refused for a confirmation (and
 * answers true), else leaves the error to the caller (false).
 */
export function useRetimeConfirmation() {
  const [pending, setPending] = useState<PendingRetime | null>(null);
  const ask = (err: unknown, send: (confirm: RetimeConfirm[]) => Promise<unknown>): boolean => {
    const retimes = retimesOf(err);
    if (!retimes) return false;
    setPending({ message: messageOf(err), retimes, send });
    return true;
  };
  return { pending, ask, close: () => setPending(null) };
}

export function RetimeDialog({
  pending,
  onClose,
  onError,
  onDone,
}: {
  pending: PendingRetime | null;
  onClose: () => void;
  /** A refusal of the confirmed action (not another list: that is shown here instead). */
  onError: (message: string) => void;
  onDone?: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<PendingRetime | null>(null);
  const current = shown ?? pending;
  const close = () => {
    setShown(null);
    onClose();
  };
  async function confirm() {
    if (!current) return;
    setBusy(true);
    try {
      await current.send(confirmationOf(current.retimes));
      close();
      onDone?.();
    } catch (err) {
      // Another phone changed the race meanwhile: the race lists who would change now, shown instead.
      const retimes = retimesOf(err);
      if (retimes) setShown({ ...current, message: messageOf(err), retimes });
      else {
        close();
        onError(messageOf(err));
      }
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={current !== null} onOpenChange={(open) => !open && close()}>
      {current && (
        <DialogContent title="Andra löpare får nya tider" description={current.message}>
          <table className="retime-table">
            <thead>
              <tr>
                <th scope="col">Löpare</th>
                <th scope="col">Tid nu</th>
                <th scope="col">Ny tid</th>
              </tr>
            </thead>
            <tbody>
              {retimeRows(current.retimes).map((row) => (
                <tr key={row.key}>
                  <th scope="row">{row.who}</th>
                  <td>{row.from}</td>
                  <td>{row.to}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="race-form-actions">
            <Button variant="primary" loading={busy} onClick={() => void confirm()}>
              Ändra tiderna
            </Button>
            <Button disabled={busy} onClick={close}>
              Avbryt
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
