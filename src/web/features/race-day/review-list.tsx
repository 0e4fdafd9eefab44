/**
 * 'Att granska': what a volunteer pressed that the race could not take as it was (a finish for a race not
 * started, a second start far from the first …), kept by the race until a person decides. Live from the socket,
 * the same on every phone, and still there after a reload: the server keeps the list. Each item says what, who,
 * from which device, when and why; 'Använd' takes it with its original moment, 'Kasta' (confirmed) drops it (rapid
 * timing's kinds name their buttons by what they do: reviewActions). Both are in the log. A decision that would give
 * other runners new times (a bib typed twice removed: the bibs after it move) shows who gets which time first and is
 * made only once the organiser confirms (retime-dialog.tsx). Two phones deciding one item at once: the first
 * decision stands, the second is refused by the server with its reason, and the item leaves both lists over the
 * socket.
 */
import { useState } from "react";
import type { ReviewRecord } from "../../../shared/race-protocol";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import type { RetimeConfirm } from "../../../shared/race-protocol";
import { useDecideReview } from "./api/decide-review";
import { useChangeBib } from "./api/rapid-timing";
import { messageOf } from "./race-alerts";
import { stockholmClockTime } from "./race-view";
import { RetimeDialog, useRetimeConfirmation } from "./retime-dialog";
import { TapPhotoStrip } from "./finish-photos";

export interface ReviewListProps {
  raceId: string;
  reviews: readonly ReviewRecord[];
  /** 'Ella Berg (200)' for a runner id, as the screen knows them now. */
  runnerLabel: (review: ReviewRecord) => string;
  deviceLabel: (device: string | null) => string;
  onError: (message: string) => void;
  /** Målfoto: the item's taps whose photos it shows (its own tap, or its slot's). */
  photoTaps?: (review: ReviewRecord) => readonly string[];
}

/** What the item is, in a few words: 'Måltid 10:58:09 för Ella Berg (200)', 'Start 10:00:00', 'Nr 21 okänt'. */
export function reviewTitle(review: ReviewRecord, runner: string): string {
  const at = stockholmClockTime(review.at);
  const bib = review.bib != null ? `Nr ${review.bib}` : "Startnummer";
  switch (review.kind) {
    case "start":
      return `Start ${at}`;
    case "rapid":
      return `Mål! ${at}`;
    case "slot-single":
      return `Måltid ${at} från bara en telefon`;
    case "slot-unmatched":
      return `Måltid ${at} utan startnummer`;
    case "bib-unmatched":
      return `${bib} utan måltid`;
    case "bib-twice":
      return `${bib} inskrivet två gånger`;
    case "bib-unknown":
      return `${bib} finns inte i loppet`;
    case "bib-finished":
      return `${bib} har redan en tid${runner ? ` (${runner})` : ""}`;
    case "bib-early":
      return `${bib} inskrivet före starten`;
    default:
      return `Måltid ${at}${runner ? ` för ${runner}` : ""}`;
  }
}

/**
 * The two buttons an item offers, named by what they do to it (src/durable/race/rules/review.ts decides each kind):
 * a kind that cannot be applied as it stands (a time without a bib, a bib without a time, an unknown or doubled bib:
 * the bib is written, or a suggestion chosen, instead) offers only its removal.
 */
export function reviewActions(review: ReviewRecord): { apply: string | null; discard: string } {
  switch (review.kind) {
    case "slot-single":
      return { apply: "Behåll tiden", discard: "Kasta tiden" };
    case "slot-unmatched":
      return { apply: null, discard: "Kasta tiden" };
    case "bib-unmatched":
    case "bib-twice":
      return { apply: null, discard: "Ta bort numret" };
    case "bib-unknown":
      // A bib that reached a slot stood for a crossing: its slot goes with it (so no later bib moves).
      return { apply: null, discard: review.slot ? "Ta bort numret och tiden" : "Ta bort numret" };
    case "bib-early":
      return { apply: "Använd numret", discard: "Kasta" };
    case "bib-finished":
      return { apply: "Använd nya tiden", discard: "Behåll gamla tiden" };
    default:
      return { apply: "Använd", discard: "Kasta" };
  }
}

export function ReviewList({ raceId, reviews, runnerLabel, deviceLabel, onError, photoTaps }: ReviewListProps) {
  const decide = useDecideReview();
  const retime = useRetimeConfirmation();
  // Rapid timing: a typed bib corrected to a suggested runner's bib (the one-tap resolution of a typo).
  const changeBib = useChangeBib(raceId);
  const suggesting = changeBib.isPending ? (changeBib.variables?.entry ?? null) : null;
  const suggest = (entry: string, bib: number) =>
    changeBib.mutate(
      { entry, bib },
      {
        onError: (err) => {
          if (!retime.ask(err, (confirm) => changeBib.mutateAsync({ entry, bib, confirm }))) onError(messageOf(err));
        },
      },
    );
  const [discarding, setDiscarding] = useState<ReviewRecord | null>(null);
  /** Målfoto: the items whose photo the organiser enlarged (a decision then says it was made from the photo). */
  const [viewed, setViewed] = useState<ReadonlySet<string>>(new Set());
  if (reviews.length === 0 && !retime.pending) return null;

  const busy = (id: string, action: "apply" | "discard") =>
    decide.isPending && decide.variables?.itemId === id && decide.variables.action === action;
  const run = (review: ReviewRecord, action: "apply" | "discard", done?: () => void) => {
    const photo = viewed.has(review.id) || undefined;
    decide.mutate(
      { raceId, itemId: review.id, action, photo },
      {
        onSuccess: () => done?.(),
        onError: (err) => {
          const again = (confirm: RetimeConfirm[]) =>
            decide.mutateAsync({ raceId, itemId: review.id, action, confirm, photo });
          // Refused for a confirmation: the list replaces the discard question.
          if (retime.ask(err, again)) done?.();
          else onError(messageOf(err));
        },
      },
    );
  };

  return (
    <section className="race-review" aria-labelledby="race-review-title">
      <h3 id="race-review-title">Att granska ({reviews.length})</h3>
      <ul className="review-items">
        {reviews.map((review) => {
          const title = reviewTitle(review, runnerLabel(review));
          const actions = reviewActions(review);
          const device = deviceLabel(review.device);
          return (
            <li key={review.id} className="review-item">
              <p className="review-title">{title}</p>
              <p className="review-reason">{review.reason}</p>
              <p className="review-meta">
                {[review.actor, device, `kom in ${stockholmClockTime(review.createdAt)}`].filter(Boolean).join(", ")}
              </p>
              {photoTaps && (
                <TapPhotoStrip
                  raceId={raceId}
                  taps={photoTaps(review)}
                  onViewed={() => setViewed((set) => new Set(set).add(review.id))}
                />
              )}
              {review.entry && (review.suggestions ?? []).length > 0 && (
                <div className="review-suggestions">
                  {review.suggestions!.map((sug) => (
                    <Button
                      key={sug.runnerId}
                      size="small"
                      variant="secondary"
                      loading={suggesting === review.entry}
                      disabled={decide.isPending || !!suggesting}
                      onClick={() => suggest(review.entry!, sug.bib)}
                    >
                      Menade du {sug.bib} {sug.name}?
                    </Button>
                  ))}
                </div>
              )}
              <div className="review-actions">
                {actions.apply && (
                  <Button
                    size="small"
                    variant="primary"
                    aria-label={`${actions.apply}: ${title}`}
                    loading={busy(review.id, "apply")}
                    disabled={decide.isPending}
                    onClick={() => run(review, "apply")}
                  >
                    {actions.apply}
                  </Button>
                )}
                <Button
                  size="small"
                  aria-label={`${actions.discard}: ${title}`}
                  disabled={decide.isPending}
                  onClick={() => setDiscarding(review)}
                >
                  {actions.discard}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <Dialog open={discarding !== null} onOpenChange={(open) => !open && setDiscarding(null)}>
        {discarding && (
          <DialogContent
            title={`${reviewActions(discarding).discard}?`}
            description={`${reviewTitle(discarding, runnerLabel(discarding))} tas bort ur listan och används inte. Det syns i loggen.`}
          >
            <div className="race-form-actions">
              <Button
                variant="primary"
                loading={busy(discarding.id, "discard")}
                onClick={() => run(discarding, "discard", () => setDiscarding(null))}
              >
                {reviewActions(discarding).discard}
              </Button>
              <Button onClick={() => setDiscarding(null)}>Behåll</Button>
            </div>
          </DialogContent>
        )}
      </Dialog>
      <RetimeDialog pending={retime.pending} onClose={retime.close} onError={onError} />
    </section>
  );
}
