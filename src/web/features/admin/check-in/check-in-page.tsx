/**
 * /admin/incheckning ('Nummerlappar'): the bib desk on race morning, built for a phone on a table. Scan the
 * family's QR with the camera, or type its code, or search by name, e-mail or bib as you type; then the family's
 * runners with distance and bib, 'Hämtat' per runner or for the whole family, 'Ångra', and a bib for a runner
 * without one. Actions are shown at once and queued on the device until the server has them (use-desk-queue.ts).
 * A lazy chunk in the admin folder; the QR decoder is a lazy chunk of its own, loaded when the camera starts.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { formatCheckinCode, parseCheckinCode, type DeskSearchHit, type FamilyKey } from "../../../../shared/checkin";
import { distanceLabel, toDistance } from "../../../../shared/distances";
import { Button } from "../../../components/ui/button";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { familyByCode, useFamily } from "./api/get-family";
import { useSearchFamilies } from "./api/search-families";
import { FamilyCard } from "./family-card";
import { QrScanner } from "./qr-scanner";
import { useDeskQueue } from "./use-desk-queue";
import "./check-in.css";

export default function CheckInPage() {
  useDocumentTitle("Nummerlappar");
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  const [selected, setSelected] = useState<FamilyKey | null>(null);
  const [message, setMessage] = useState<{ kind: "error" | "info"; text: string } | null>(null);
  const [looking, setLooking] = useState(false);
  const queue = useDeskQueue((error) => setMessage({ kind: "error", text: error }));
  const family = useFamily(selected);
  const code = parseCheckinCode(text);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text), 200);
    return () => clearTimeout(timer);
  }, [text]);
  const search = useSearchFamilies(code ? "" : debounced);

  const unsent = useMemo(() => new Set(queue.pending.flatMap((p) => p.runners.map((r) => r.id))), [queue.pending]);

  const open = async (found: string, how: "scan" | "typed") => {
    setLooking(true);
    setMessage(null);
    try {
      const f = await familyByCode(queryClient, found);
      setSelected({ kind: f.kind, id: f.id });
      if (how === "typed") setText("");
    } catch (err) {
      setSelected(null);
      setMessage({ kind: "error", text: err instanceof Error ? err.message : String(err) });
    } finally {
      setLooking(false);
    }
  };

  return (
    <section className="page checkin">
      <h2>Nummerlappar</h2>
      <QrScanner
        onCode={(c) => void open(c, "scan")}
        onOther={() =>
          setMessage({ kind: "error", text: "Det är inte en incheckningskod. Visa QR-koden från kvittot." })
        }
      />

      <form
        className="checkin-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (code) void open(code, "typed");
        }}
      >
        <label htmlFor="checkin-q" className="field-label">
          Sök namn, e-post eller startnummer – eller skriv koden
        </label>
        <div className="checkin-search-row">
          <input
            id="checkin-q"
            type="search"
            autoComplete="off"
            spellCheck={false}
            enterKeyHint="search"
            maxLength={100}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {code && (
            <Button type="submit" variant="primary" loading={looking}>
              Öppna {formatCheckinCode(code)}
            </Button>
          )}
        </div>
      </form>

      {queue.pending.length > 0 && (
        <p className="alert alert-warning" role="status">
          Ej skickade: {queue.pending.length}. Skickas när nätet är tillbaka.
        </p>
      )}
      {message && (
        <p className={`alert alert-${message.kind}`} role="alert">
          {message.text}
        </p>
      )}

      {selected && family.isPending && <p className="muted">Hämtar familjen…</p>}
      {selected && family.isError && (
        <p className="alert alert-error" role="alert">
          {family.error.message}
        </p>
      )}
      {family.data && selected && <FamilyCard family={family.data} unsent={unsent} onAction={queue.add} />}
      {!code && debounced.trim() && search.data && (
        <SearchHits
          hits={search.data}
          selected={selected}
          onPick={(hit) => {
            setMessage(null);
            setSelected({ kind: hit.kind, id: hit.id });
          }}
        />
      )}
      {!code && search.isError && (
        <p className="alert alert-error" role="alert">
          {search.error.message}
        </p>
      )}
    </section>
  );
}

function SearchHits({
  hits,
  selected,
  onPick,
}: {
  hits: DeskSearchHit[];
  selected: FamilyKey | null;
  onPick: (hit: DeskSearchHit) => void;
}) {
  if (hits.length === 0) return <p className="muted">Ingen träff.</p>;
  return (
    <ul className="checkin-hits" aria-label="Träffar">
      {hits.map((hit) => {
        const picked = hit.runners.filter((r) => r.pickedUpAt !== null).length;
        const current = selected?.kind === hit.kind && selected.id === hit.id;
        return (
          <li key={`${hit.kind}:${hit.id}`}>
            <button
              type="button"
              className={current ? "checkin-hit is-current" : "checkin-hit"}
              aria-pressed={current}
              onClick={() => onPick(hit)}
            >
              <span className="checkin-hit-names">
                {hit.runners
                  .map((r) => `${r.firstname} ${r.lastname} (${distanceText(r.distance)}${r.bib ? `, ${r.bib}` : ""})`)
                  .join(", ")}
              </span>
              <span className="checkin-hit-meta">
                {hit.email ?? (hit.phone ? `Kassan, tel. ${hit.phone}` : "Kassan")} ·{" "}
                {hit.paid ? `hämtat ${picked} av ${hit.runners.length}` : "ej betald"}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function distanceText(d: string): string {
  const km = toDistance(d);
  return km ? distanceLabel(km) : `${d} km`;
}
