/** Links to the results of other years (spec: "Links to older-year results"), newest first. */
import { Link } from "react-router";

export function YearLinks({ years, label }: { years: readonly number[]; label: string }) {
  if (years.length === 0) return <p className="muted">Inga andra år finns ännu.</p>;
  return (
    <ul className="year-links" aria-label={label}>
      {years.map((year) => (
        <li key={year}>
          <Link to={`/resultat/${year}`} className="year-link">
            {year}
          </Link>
        </li>
      ))}
    </ul>
  );
}
