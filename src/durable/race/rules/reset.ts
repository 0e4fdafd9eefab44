/**
 * Reset: any state back to not started; start, finishes and DNS cleared, runners and bibs kept. The epoch moves
 * on, so taps made before stay spent (a replay of one answers what it answered then). Rapid timing's taps and
 * typed bibs are cleared too (their replays answer 'replayed' and add nothing), with the main timer and the
 * results' status (official results included: the race is run again). Målfoto's photos are removed (rules/photos.ts;
 * the reset route deletes their R2 objects), and a photo of a tap from before the reset is refused from then on.
 */
import type { RaceRecord } from "../../../shared/race-protocol";
import { raceRecord } from "../records";
import { decided, type Decision, type RuleContext } from "./decision";
import { clearPhotosInReset, liveTapsWithPhotos } from "./photos";

export function reset({ store, now, by }: RuleContext): Decision<RaceRecord> {
  const meta = store.requireMeta();
  const finishes = store.sql<{ id: string; finished: number | null; dns: number }>(
    "SELECT id, finished, dns FROM runners WHERE finished IS NOT NULL OR dns = 1 OR corrected = 1",
  );
  const slots = store.sql<{ tap_id: string }>("SELECT tap_id FROM rapid_taps WHERE cleared = 0").map((r) => r.tap_id);
  const entries = store.sql<{ id: string }>("SELECT id FROM bib_entries WHERE cleared = 0").map((r) => r.id);
  const photos = liveTapsWithPhotos(store);
  store.write(
    "reset",
    {
      previous: { state: meta.state, started: meta.started, results: meta.results || null },
      finishes: finishes.map((r) => [r.id, r.finished]),
      ...(slots.length > 0 || entries.length > 0 ? { rapidTaps: slots.length, typedBibs: entries.length } : {}),
      ...(photos.length > 0 ? { photos: photos.length } : {}),
    },
    by,
    (seq) => {
      store.sql(
        `UPDATE meta SET state = '', started = NULL, seq = ?, epoch = epoch + 1, mirror_pending = 1, results = '',
           official_at = NULL, main_timer = NULL
         WHERE id = 1`,
        seq,
      );
      store.sql(
        `UPDATE runners SET finished = NULL, dns = 0, slot = NULL, claim = NULL, corrected = 0, seq = ?
         WHERE finished IS NOT NULL OR dns = 1 OR corrected = 1`,
        seq,
      );
      store.sql("UPDATE rapid_taps SET cleared = 1, seq = ? WHERE cleared = 0", seq);
      store.sql("UPDATE bib_entries SET cleared = 1, seq = ? WHERE cleared = 0", seq);
      store.sql("DELETE FROM official_results");
      clearPhotosInReset(store, seq, now, photos);
    },
  );
  return decided(raceRecord(store.requireMeta()), {
    race: true,
    runners: finishes.map((r) => r.id),
    slots,
    entries,
    photos,
    mirrorRace: true,
  });
}
