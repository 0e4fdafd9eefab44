/**
 * /admin/personuppgifter: a family asks what is stored about them. Find the address, see a summary, download
 * all of it as one JSON file, or erase it after typing the address again. Payment records stay for bookkeeping
 * (seven years, bokföringslagen) without the payer's phone number and message.
 */
import { useState, type FormEvent } from "react";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { useDocumentTitle } from "../../../lib/use-document-title";
import type { ErasedCounts, PersonalDataCounts, PersonalDataSummary } from "../../../../shared/personal-data";
import { useErasePersonalData } from "./api/erase-personal-data";
import { useExportPersonalData } from "./api/export-personal-data";
import { usePersonalData } from "./api/get-personal-data";
import "./personal-data.css";

const EMAIL_MESSAGE = "Ange en giltig e-postadress.";

function normalize(email: string): string {
  return email.trim().toLowerCase();
}

function looksLikeEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254;
}

const COUNT_WORDS: [keyof PersonalDataCounts, string][] = [
  ["registrations", "Anmälningar"],
  ["runners", "Löpare"],
  ["payments", "Betalningar"],
  ["refunds", "Återbetalningar"],
  ["emails", "Skickade mejl"],
  ["loginCodes", "Inloggningskoder"],
  ["loginFailures", "Felaktiga kodförsök"],
  ["sessions", "Inloggningar"],
  ["unsubscribes", "Avregistrerad från utskick"],
  ["mailings", "Massutskick"],
  ["epassiInvitations", "Epassi-inbjudningar"],
  ["campaignCodes", "Kampanjkoder som nämner adressen"],
  ["auditRows", "Rader i granskningsloggen"],
];

export default function PersonalDataPage() {
  useDocumentTitle("Personuppgifter");
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string | null>(null);
  const [email, setEmail] = useState("");
  const [erased, setErased] = useState<{ email: string; counts: ErasedCounts } | null>(null);
  const summary = usePersonalData(email);
  const found = summary.data;

  function search(e: FormEvent) {
    e.preventDefault();
    const wanted = normalize(draft);
    if (!looksLikeEmail(wanted)) {
      setDraftError(EMAIL_MESSAGE);
      return;
    }
    setErased(null);
    if (wanted === email) void summary.refetch();
    else setEmail(wanted);
  }

  return (
    <section className="page personal-data">
      <h2>Personuppgifter</h2>
      <p className="muted">
        När en familj frågar vad som finns sparat om dem: sök på e-postadressen, ladda ner allt som en JSON-fil, eller
        radera det. Betalningar sparas i sju år enligt bokföringslagen, men utan betalarens telefonnummer och
        meddelande.
      </p>
      <form className="personal-data-search" onSubmit={search} noValidate role="search">
        <Field label="E-postadress" error={draftError}>
          {(control) => (
            <input
              {...control}
              type="email"
              name="email"
              autoComplete="off"
              spellCheck={false}
              value={draft}
              onChange={(e) => {
                setDraft(e.target.value);
                setDraftError(null);
              }}
            />
          )}
        </Field>
        <Button type="submit" variant="primary" loading={summary.isFetching}>
          Sök
        </Button>
      </form>

      {erased && <ErasedNote email={erased.email} counts={erased.counts} />}
      {summary.isError && (
        <p
          className={summary.error.message.startsWith("Inget finns") ? "alert alert-info" : "alert alert-error"}
          role="alert"
        >
          {summary.error.message}
        </p>
      )}
      {found && (
        <Summary
          key={found.email}
          data={found}
          onErased={(counts) => {
            setErased({ email: found.email, counts });
            setEmail("");
          }}
        />
      )}
    </section>
  );
}

function Summary({ data, onErased }: { data: PersonalDataSummary; onErased: (counts: ErasedCounts) => void }) {
  const download = useExportPersonalData();
  return (
    <article className="personal-data-card" aria-labelledby="personal-data-found">
      <h3 id="personal-data-found">Sparat om {data.email}</h3>
      {data.admin && <p className="alert alert-warning">Adressen är också administratör.</p>}
      {data.registrations.length > 0 ? (
        <ul className="personal-data-seasons">
          {data.registrations.map((r) => (
            <li key={r.season}>
              <strong>Anmälan {r.season}</strong> – {r.paid ? "betald" : "Ej betald"}
              {r.runners.length > 0 ? (
                <ul>
                  {r.runners.map((p, i) => (
                    <li key={i}>
                      {p.firstname} {p.lastname}, {p.age} år, {p.distance.replace(".", ",")} km
                      {p.race && <span className="muted"> ({p.race})</span>}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="muted"> (inga löpare)</span>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>Ingen anmälan.</p>
      )}
      <dl className="personal-data-counts">
        {COUNT_WORDS.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{data.counts[key]}</dd>
          </div>
        ))}
      </dl>
      <div className="personal-data-actions">
        <Button onClick={() => download.mutate(data.email)} loading={download.isPending}>
          Ladda ner JSON
        </Button>
        {download.isSuccess && (
          <span className="muted" role="status">
            Sparad som {download.data}
          </span>
        )}
      </div>
      {download.isError && (
        <p className="alert alert-error" role="alert">
          {download.error.message}
        </p>
      )}
      <EraseForm data={data} onErased={onErased} />
    </article>
  );
}

function EraseForm({ data, onErased }: { data: PersonalDataSummary; onErased: (counts: ErasedCounts) => void }) {
  const [confirm, setConfirm] = useState("");
  const erase = useErasePersonalData();
  const matches = normalize(confirm) === data.email;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!matches) return;
    erase.mutate({ email: data.email, confirm }, { onSuccess: (res) => onErased(res.erased) });
  }

  return (
    <form className="personal-data-erase" onSubmit={submit} noValidate aria-labelledby="personal-data-erase-title">
      <h4 id="personal-data-erase-title">Radera</h4>
      <p>
        Löparna anonymiseras (även i lopp som inte är avslutade), e-postadressen tas bort överallt, inloggningar
        avslutas. Betalningarna finns kvar för bokföringen med belopp, datum, referens och status. Det går inte att
        ångra.
      </p>
      {data.openPayment && (
        <p className="alert alert-warning">
          En Swish-betalning är inte avslutad. Vänta tills den är betald eller avbruten innan du raderar.
        </p>
      )}
      <Field label="Skriv e-postadressen igen för att bekräfta">
        {(control) => (
          <input
            {...control}
            type="email"
            name="confirm"
            autoComplete="off"
            spellCheck={false}
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        )}
      </Field>
      {erase.isError && (
        <p className="alert alert-error" role="alert">
          {erase.error.message}
        </p>
      )}
      <Button type="submit" className="btn-danger" disabled={!matches} loading={erase.isPending}>
        Radera personuppgifter
      </Button>
    </form>
  );
}

/** '1 anmälan', '2 anmälningar'. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function ErasedNote({ email, counts }: { email: string; counts: ErasedCounts }) {
  return (
    <div className="alert alert-success" role="status">
      <p>
        <strong>Personuppgifterna för {email} är raderade.</strong>
      </p>
      <p>
        Anonymiserade: {count(counts.registrations, "anmälan", "anmälningar")},{" "}
        {count(counts.runners, "löpare", "löpare")} (varav {counts.raceRunners} i lopp som inte är avslutade). Rensade
        på telefonnummer och meddelande: {count(counts.payments, "betalning", "betalningar")}. Borttagna: adressen i{" "}
        {count(counts.emails, "mejl", "mejl")}, {count(counts.sessions, "inloggning", "inloggningar")},{" "}
        {count(counts.loginCodes, "inloggningskod", "inloggningskoder")}.
      </p>
    </div>
  );
}
