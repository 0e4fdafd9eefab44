/**
 * 'Preliminära' → 'Officiella' on the race screen (issue 26): the results' status, and on an ended race the button
 * that makes them official. With items left under 'Att granska' it asks first and sends the confirmation; the
 * server refuses an open list without it, a race not ended, and a second 'Officiella' (a Swedish 409 shown here).
 * Two admins pressing at once: the race object takes the first; the second is told the results are already official.
 * The button is an organiser's (issue 43): a volunteer sees the status only.
 */
import { useState } from "react";
import { RESULTS_STATUS_TEXT, type RaceRecord } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { useAdminRole } from "../../lib/config/get-config";
import { useMarkOfficial } from "./api/rapid-timing";
import { messageOf } from "./race-alerts";

export function ResultsStatus({
  raceId,
  race,
  openReviews,
  onError,
}: {
  raceId: string;
  race: RaceRecord;
  openReviews: number;
  onError: (message: string) => void;
}) {
  const mark = useMarkOfficial(raceId);
  const [confirming, setConfirming] = useState(false);
  const organiser = useAdminRole() === "organiser";
  if (!race.results) return null;
  const canMark = organiser && race.state === "ended" && race.results === "preliminary";
  const send = (confirm: boolean) =>
    mark.mutate(confirm, {
      onSuccess: () => setConfirming(false),
      onError: (err) => onError(messageOf(err)),
    });

  return (
    <div className="results-status">
      <p className={`results-badge results-${race.results}`} role="status">
        Resultat: {RESULTS_STATUS_TEXT[race.results]}
      </p>
      {canMark && (
        <Button
          variant="primary"
          loading={mark.isPending && !confirming}
          onClick={() => (openReviews > 0 ? setConfirming(true) : send(false))}
        >
          Markera som officiella
        </Button>
      )}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent
          title="Markera ändå som officiella?"
          description={`${openReviews === 1 ? "1 sak" : `${openReviews} saker`} under Att granska är inte ${openReviews === 1 ? "avgjord" : "avgjorda"}. Resultaten kan rättas efteråt; rättelser syns som korrigerade.`}
        >
          <div className="race-form-actions">
            <Button variant="primary" loading={mark.isPending} onClick={() => send(true)}>
              Markera ändå
            </Button>
            <Button onClick={() => setConfirming(false)}>Avbryt</Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}
