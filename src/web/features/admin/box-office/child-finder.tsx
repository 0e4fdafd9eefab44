/**
 * Finding the child a parent will run with (issue 39, item 3), with the bib desk's own calls: this season's families
 * by a runner's name, the e-mail or a bib as you type (`GET /admin/api/checkin/search`), or the family's check-in
 * code typed (`GET /admin/api/checkin/code/{code}`); then the chosen family's runners as their races have them
 * (`GET /admin/api/checkin/family/anmalan/{id}`). Families registered online only: a box-office child has no
 * registration to join. A child that can have a companion (paid, not deregistered, under the adult age, competing) is
 * a button; every other runner says why not. The server checks all of it again on the sale.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatCheckinCode, parseCheckinCode, type DeskRunner } from "../../../../shared/checkin";
import { SEASON } from "../../../../shared/season";
import { Button } from "../../../components/ui/button";
import { useConfig } from "../../../lib/config/get-config";
import { familyByCode, useFamily } from "../check-in/api/get-family";
import { useSearchFamilies } from "../check-in/api/search-families";

export interface ChosenChild {
  id: string;
  firstname: string;
  lastname: string;
  age: number;
  distance: string;
  /** The family's e-mail, to tell the volunteer whose registration the parent joins. */
  email: string | null;
}

const km = (distance: string) => `${distance.replace(".", ",")} km`;

/** Why a runner cannot have a companion, or null when it can. */
function notAChild(r: DeskRunner, adultAge: number): string | null {
  if (r.companion) return "springer med barn";
  if (r.deregistered) return "avregistrerad";
  if (r.age >= adultAge) return "vuxen";
  if (!r.paid) return "ej betald";
  return null;
}

export function ChildFinder({ onChoose }: { onChoose: (child: ChosenChild) => void }) {
  const queryClient = useQueryClient();
  const adultAge = useConfig().data?.season.adultAge ?? SEASON.adultAge;
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  const [familyId, setFamilyId] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const code = parseCheckinCode(text);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text), 200);
    return () => clearTimeout(timer);
  }, [text]);
  const search = useSearchFamilies(code ? "" : debounced);
  const family = useFamily(familyId ? { kind: "anmalan", id: familyId } : null);
  const hits = (search.data ?? []).filter((h) => h.kind === "anmalan");

  const open = async (found: string) => {
    setCodeError(null);
    try {
      const f = await familyByCode(queryClient, found);
      setFamilyId(f.id);
    } catch (err) {
      setCodeError(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <div className="companion-finder">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (code) void open(code);
        }}
      >
        <label htmlFor="companion-child-q" className="field-label">
          Sök barnet: namn, e-post, startnummer eller incheckningskod
        </label>
        <div className="companion-finder-row">
          <input
            id="companion-child-q"
            type="search"
            autoComplete="off"
            spellCheck={false}
            enterKeyHint="search"
            maxLength={100}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {code && <Button type="submit">Öppna {formatCheckinCode(code)}</Button>}
        </div>
      </form>
      {(codeError ?? (search.isError ? search.error.message : null)) && (
        <p className="alert alert-error" role="alert">
          {codeError ?? search.error?.message}
        </p>
      )}
      {!code && debounced.trim() && search.data && hits.length === 0 && (
        <p className="muted">Ingen familj anmäld på nätet matchar.</p>
      )}
      {!code && hits.length > 0 && (
        <ul className="companion-hits" aria-label="Familjer">
          {hits.map((hit) => (
            <li key={hit.id}>
              <button
                type="button"
                className={hit.id === familyId ? "companion-hit is-current" : "companion-hit"}
                aria-pressed={hit.id === familyId}
                onClick={() => setFamilyId(hit.id)}
              >
                <span>{hit.runners.map((r) => `${r.firstname} ${r.lastname} (${km(r.distance)})`).join(", ")}</span>
                <span className="muted">{hit.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {familyId && family.isPending && <p className="muted">Hämtar familjen…</p>}
      {family.data && familyId && (
        <ul className="companion-children" aria-label="Välj barnet">
          {family.data.runners.map((r) => {
            const why = notAChild(r, adultAge);
            const name = `${r.firstname} ${r.lastname}`;
            return (
              <li key={r.id}>
                {why === null ? (
                  <Button onClick={() => onChoose({ ...r, email: family.data.email })}>
                    Springer med {name}, {km(r.distance)}
                  </Button>
                ) : (
                  <span className="muted">
                    {name}, {km(r.distance)}: {why}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
