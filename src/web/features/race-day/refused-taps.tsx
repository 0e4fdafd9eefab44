/**
 * Presses the server refused (not a network trouble: a considered no, such as a malformed call). They stay in the
 * queue and on screen with the server's words; 'Försök igen' sends them again, and only a person can take one out
 * ('Kasta', behind a confirmation that says it is then gone). Items written by another version of the page are
 * kept and counted, never sent or dropped here.
 */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { stockholmClockTime } from "./race-view";
import type { KnownItem } from "./tap-queue";

export interface RefusedTapsProps {
  items: readonly KnownItem[];
  foreign: number;
  /** 'Ella Berg (200)' for a finish's runner. */
  runnerLabel: (sort: string) => string;
  onRetry: () => void;
  onDiscard: (tap: string) => void;
}

export function itemTitle(item: KnownItem, runner: string): string {
  const at = stockholmClockTime(item.at);
  if (item.kind === "start") return `Start ${at}`;
  if (item.kind === "bib-entry") return `Startnummer ${item.bib} ${at}`;
  return `Måltid ${at}${runner ? ` för ${runner}` : ""}`;
}

export function RefusedTaps({ items, foreign, runnerLabel, onRetry, onDiscard }: RefusedTapsProps) {
  const [discarding, setDiscarding] = useState<KnownItem | null>(null);
  const refused = items.filter((i) => i.refused);
  if (refused.length === 0 && foreign === 0) return null;
  const title = (item: KnownItem) => itemTitle(item, item.kind === "finish" ? runnerLabel(item.sort) : "");

  return (
    <section className="refused-taps" aria-labelledby="refused-taps-title">
      <h3 id="refused-taps-title">Ej skickade, servern sa nej</h3>
      {refused.length > 0 && (
        <ul className="review-items">
          {refused.map((item) => (
            <li key={item.tap} className="review-item">
              <p className="review-title">{title(item)}</p>
              <p className="review-reason">{item.refused!.message}</p>
              <div className="review-actions">
                <Button size="small" onClick={onRetry}>
                  Försök igen
                </Button>
                <Button size="small" aria-label={`Kasta: ${title(item)}`} onClick={() => setDiscarding(item)}>
                  Kasta
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {foreign > 0 && (
        <p className="muted">
          {foreign === 1 ? "1 sparad post" : `${foreign} sparade poster`} från en annan version av sidan finns kvar på
          telefonen. Den här versionen kan inte skicka dem, men tar inte bort dem.
        </p>
      )}
      <Dialog open={discarding !== null} onOpenChange={(open) => !open && setDiscarding(null)}>
        {discarding && (
          <DialogContent
            title="Kasta den här tiden?"
            description={`${title(discarding)} har inte nått servern. Kastar du den finns den inte kvar någonstans.`}
          >
            <div className="race-form-actions">
              <Button
                variant="primary"
                onClick={() => {
                  onDiscard(discarding.tap);
                  setDiscarding(null);
                }}
              >
                Kasta
              </Button>
              <Button onClick={() => setDiscarding(null)}>Behåll</Button>
            </div>
          </DialogContent>
        )}
      </Dialog>
    </section>
  );
}
