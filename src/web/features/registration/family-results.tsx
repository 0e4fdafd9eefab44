/**
 * Step 3 on race day (issue 28, items 3 and 4): each of the family's runners with their time and placings once
 * their race has started, live while it runs, and a link to each finished runner's diploma (a print view the
 * Worker makes). Nothing shows before the family's first race starts.
 */
import type { Runner } from "./api/types";
import { useFamilyResults } from "./api/get-family-results";
import { FAMILY_TEXT, familyResultLine, showsFamilyResults } from "./family-results-text";

export function FamilyResults({ runners, enabled }: { runners: readonly Runner[]; enabled: boolean }) {
  const query = useFamilyResults(enabled);
  const data = query.data;
  if (!data || !showsFamilyResults(data.races)) return null;
  const races = new Map(data.races.map((r) => [r.part, r]));
  const names = new Map(runners.map((r) => [r.id, `${r.firstname} ${r.lastname}`.trim()]));
  const lines = data.runners.map((r) => familyResultLine(r, races.get(r.raceId)));
  const finished = lines.filter((l) => l.finished).length;
  return (
    <section className="family-results" aria-labelledby="family-results-heading">
      <h3 id="family-results-heading">{FAMILY_TEXT.heading}</h3>
      <ul className="family-results-list">
        {lines.map((l) => (
          <li key={l.id}>
            <span className="family-results-name">
              {names.get(l.id) ?? ""}
              <small className="runner-facts">{l.distance}</small>
            </span>
            <span className={l.finished ? "family-results-time" : "family-results-state"}>{l.result}</span>
            {l.placing && <small className="family-results-placing">{l.placing}</small>}
            {l.note && <small className="family-results-note">{l.note}</small>}
            {l.finished && (
              <small className="family-results-links">
                {l.status}
                {" · "}
                <a href={`/api/family/diplomas?runner=${encodeURIComponent(l.id)}`} target="_blank" rel="noopener">
                  {FAMILY_TEXT.diploma}
                </a>
              </small>
            )}
          </li>
        ))}
      </ul>
      {finished > 1 && (
        <p className="family-results-all">
          <a href="/api/family/diplomas" target="_blank" rel="noopener">
            {FAMILY_TEXT.allDiplomas}
          </a>
        </p>
      )}
    </section>
  );
}
