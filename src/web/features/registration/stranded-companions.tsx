/**
 * Issue 39, item 2: a refund took a child out and left an adult who runs with children (shared/companion.ts) with
 * no child on their distance. The family's page says what that means and what they can do: the rest of the
 * registration is changed (and paid) as usual; an unpaid companion is removed or moved before paying; a paid one
 * stays registered, can be moved to a distance where a child runs, or is taken out by the organiser on request
 * (with its money back when it cost anything).
 */
import { childDistances, companionKm, strandedCompanions } from "../../../shared/companion";
import { runnerState } from "../../../shared/registration-view";
import { SEASON } from "../../../shared/season";
import type { Runner } from "./api/types";
import { formatKr } from "../../lib/format";

function whereChildrenRun(runners: readonly Runner[], adultAge: number): string {
  const distances = [...childDistances(runners, { ...SEASON, adultAge })].sort((a, b) => Number(a) - Number(b));
  return distances.map(companionKm).join(" eller ");
}

function CompanionNotice({ runner: r, elsewhere }: { runner: Runner; elsewhere: string }) {
  const name = `${r.firstname} ${r.lastname}`;
  const km = companionKm(r.distance);
  const paid = runnerState(r) === "paid";
  const move = elsewhere
    ? `flytta ${r.firstname} till ${elsewhere}, där ett barn springer`
    : `lägga till ett barn på ${km}`;
  return (
    <p>
      <strong>
        {name} springer med barn på {km}, men inget barn i anmälan springer där längre.
      </strong>{" "}
      {paid ? (
        <>
          {r.firstname} är betald och står kvar som anmäld. Ni kan {move}, eller skriva till{" "}
          <a href={`mailto:${SEASON.contactEmail}`}>{SEASON.contactEmail}</a> så tar vi bort {r.firstname}
          {r.price ? ` och betalar tillbaka ${formatKr(r.price)}` : ""}.
        </>
      ) : (
        <>
          {r.firstname} är inte betald: ta bort {r.firstname}
          {elsewhere ? `, eller flytta ${r.firstname} till ${elsewhere}` : ""}, innan ni betalar.
        </>
      )}
    </p>
  );
}

/** The notice, or nothing when every companion of the family has a child on its distance. */
export function StrandedCompanions({ runners, adultAge }: { runners: readonly Runner[]; adultAge: number }) {
  const stranded = strandedCompanions(runners, { ...SEASON, adultAge });
  if (stranded.length === 0) return null;
  const elsewhere = whereChildrenRun(runners, adultAge);
  return (
    <div className="alert alert-info stranded-companions" role="status" aria-label="Springer med barn">
      {stranded.map((r) => (
        <CompanionNotice key={r.id} runner={r} elsewhere={elsewhere} />
      ))}
      <p>Resten av anmälan kan ni ändra och betala som vanligt.</p>
    </div>
  );
}
