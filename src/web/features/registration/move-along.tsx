/**
 * 'Flytta också …' in the runner dialog (issue 39, item 1): a child moving to another distance would leave the adults
 * who run with it alone (shared/companion.ts companionsLeftWithoutChild) without a child, so each is offered, ticked,
 * to move along in the same save. Unticked, the server refuses the save and names the adult (the rule is its).
 */
import { companionKm } from "../../../shared/companion";
import type { DistanceKm } from "../../../shared/season";

export interface Follower {
  id: string;
  firstname: string;
  lastname: string;
}

export function MoveAlong({
  followers,
  distance,
  leftBehind,
  onToggle,
}: {
  followers: readonly Follower[];
  distance: DistanceKm;
  /** The followers unticked. */
  leftBehind: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  return (
    <fieldset className="field choice-group companion-choice move-along">
      <legend className="field-label">Springer med barnet</legend>
      {followers.map((f) => (
        <label key={f.id} className="choice">
          <input type="checkbox" checked={!leftBehind.has(f.id)} onChange={() => onToggle(f.id)} />
          <span>
            Flytta också {f.firstname} {f.lastname} till {companionKm(distance)}
            <small> Springer med barn och behöver ett barn på samma distans.</small>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
