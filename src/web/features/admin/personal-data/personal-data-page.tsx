/**
 * /admin/personuppgifter: a family asks what is stored about them. Find the address (or, for runners signed up at
 * the box office, who have none, the phone number or the name), see a summary, download all of it as one JSON file
 * (race day included), or erase it after typing the address or number again. Payment records stay for bookkeeping
 * (seven years, bokföringslagen) without the payer's phone number and message.
 */
import { useState, type FormEvent } from "react";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { phoneDigits } from "../../../../shared/box-office";
import type {
  ErasedCounts,
  PersonalDataCounts,
  PersonalDataKey,
  PersonalDataSummary,
} from "../../../../shared/personal-data";
import { useErasePersonalData } from "./api/erase-personal-data";
import { useExportPersonalData } from "./api/export-personal-data";
import { useBoxOfficeSearch, usePersonalData } from "./api/get-personal-data";
import "./personal-data.css";

const EMAIL_MESSAGE = "Ange en giltig e-postadress.";
const SEARCH_MESSAGE = "Ange en e-postadress, ett telefonnummer eller minst två bokstäver av ett namn.";

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

/** Who the summary is about, as the page words it. */
function who(key: PersonalDataKey, data?: PersonalDataSummary): string {
  if ("email" in key) return key.email;
  if ("phone" in key) return key.phone;
  const runner = data?.boxOffice?.[0];
  return runner ? `${runner.firstname} ${runner.lastname} (biljettkassan)` : "löparen";
}

export default function PersonalDataPage() {
  useDocumentTitle("Personuppgifter");
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string | null>(null);
  const [key, setKey] = useState<PersonalDataKey | null>(null);
  const [nameQuery, setNameQuery] = useState("");
  const [erased, setErased] = useState<{ who: string; counts: ErasedCounts } | null>(null);
  const summary = usePersonalData(key);
  const names = useBoxOfficeSearch(nameQuery);
  const found = summary.data;

  function show(next: PersonalDataKey) {
    setErased(null);
    if (key && JSON.stringify(next) === JSON.stringify(key)) void summary.refetch();
    else setKey(next);
  }

  function search(e: FormEvent) {
    e.preventDefault();
    const wanted = draft.trim();
    if (wanted.includes("@")) {
      const email = normalize(wanted);
      if (!looksLikeEmail(email)) {
        setDraftError(EMAIL_MESSAGE);
        return;
      }
      setNameQuery("");
      show({ email });
    } else if (phoneDigits(wanted) !== null) {
      setNameQuery("");
      show({ phone: wanted });
    } else if (/\p{L}.*\p{L}/u.test(wanted)) {
      setErased(null);
      setKey(null);
      setNameQuery(wanted);
    } else {
      setDraftError(SEARCH_MESSAGE);
    }
  }

  return (
    <section className="page personal-data">
      <h2>Personuppgifter</h2>
      <p className="muted">
        När en familj frågar vad som finns sparat om dem: sök på e-postadressen, ladda ner allt som en JSON-fil, eller
        radera det. Löpare från biljettkassan har ingen e-postadress: sök på telefonnumret eller namnet. Betalningar
        sparas i sju år enligt bokföringslagen, men utan betalarens telefonnummer och meddelande.
      </p>
      <form className="personal-data-search" onSubmit={search} noValidate role="search">
        <Field label="E-postadress, telefonnummer eller namn" error={draftError}>
          {(control) => (
            <input
              {...control}
              type="text"
              name="who"
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
        <Button type="submit" variant="primary" loading={summary.isFetching || names.isFetching}>
          Sök
        </Button>
      </form>

      {nameQuery !== "" && names.data && (
        <div className="personal-data-card" aria-label="Löpare från biljettkassan">
          <h3>Biljettkassan: {nameQuery}</h3>
          {names.data.runners.length === 0 ? (
            <p>Ingen löpare från biljettkassan heter så.</p>
          ) : (
            <ul className="personal-data-seasons">
              {names.data.runners.map((r) => (
                <li key={r.id}>
                  <Button variant="text" size="small" onClick={() => show({ runner: r.id })}>
                    {r.firstname} {r.lastname}
                  </Button>
                  , {r.age} år, {r.distance.replace(".", ",")} km, {r.season}
                  {r.phone && <span className="muted"> ({r.phone})</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {names.isError && (
        <p className="alert alert-error" role="alert">
          {names.error.message}
        </p>
      )}
      {erased && <ErasedNote who={erased.who} counts={erased.counts} />}
      {summary.isError && (
        <p
          className={summary.error.message.startsWith("Inget finns") ? "alert alert-info" : "alert alert-error"}
          role="alert"
        >
          {summary.error.message}
        </p>
      )}
      {found && key && (
        <Summary
          key={JSON.stringify(key)}
          personKey={key}
          data={found}
          onErased={(counts) => {
            setErased({ who: who(key, found), counts });
            setKey(null);
            setNameQuery("");
          }}
        />
      )}
    </section>
  );
}

interface SummaryProps {
  personKey: PersonalDataKey;
  data: PersonalDataSummary;
  onErased: (counts: ErasedCounts) => void;
}

function Summary({ personKey, data, onErased }: SummaryProps) {
  const download = useExportPersonalData();
  return (
    <article className="personal-data-card" aria-labelledby="personal-data-found">
      <h3 id="personal-data-found">Sparat om {who(personKey, data)}</h3>
      {data.admin && <p className="alert alert-warning">Adressen är också administratör.</p>}
      {data.boxOffice && data.boxOffice.length > 0 && (
        <ul className="personal-data-seasons">
          {data.boxOffice.map((p) => (
            <li key={p.id}>
              <strong>Biljettkassan {p.season}</strong> – {p.firstname} {p.lastname}, {p.age} år,{" "}
              {p.distance.replace(".", ",")} km{p.race && <span className="muted"> ({p.race})</span>}
              {p.phone ? `, telefon ${p.phone}` : ", telefonnumret redan borttaget"}
            </li>
          ))}
        </ul>
      )}
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
        data.email !== null && <p>Ingen anmälan.</p>
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
        <Button onClick={() => download.mutate(personKey)} loading={download.isPending}>
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
      <EraseForm personKey={personKey} data={data} onErased={onErased} />
    </article>
  );
}

/**
 * What the admin types to confirm: the address or the phone number again; for one box-office runner picked by name,
 * its last name (the call itself is then confirmed with the runner's id).
 */
function confirmation(personKey: PersonalDataKey, data: PersonalDataSummary) {
  if ("email" in personKey) {
    return { label: "Skriv e-postadressen igen för att bekräfta", ok: (s: string) => normalize(s) === personKey.email };
  }
  if ("phone" in personKey) {
    return {
      label: "Skriv telefonnumret igen för att bekräfta",
      ok: (s: string) => phoneDigits(s) !== null && phoneDigits(s) === phoneDigits(personKey.phone),
    };
  }
  const last = data.boxOffice?.[0]?.lastname ?? "";
  return {
    label: "Skriv löparens efternamn för att bekräfta",
    ok: (s: string) => s.trim().toLowerCase() === last.toLowerCase() && last !== "",
  };
}

function EraseForm({ personKey, data, onErased }: SummaryProps) {
  const [confirm, setConfirm] = useState("");
  const erase = useErasePersonalData();
  const wanted = confirmation(personKey, data);
  const matches = wanted.ok(confirm);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!matches) return;
    const typed = "runner" in personKey ? personKey.runner : confirm;
    erase.mutate({ ...personKey, confirm: typed }, { onSuccess: (res) => onErased(res.erased) });
  }

  return (
    <form className="personal-data-erase" onSubmit={submit} noValidate aria-labelledby="personal-data-erase-title">
      <h4 id="personal-data-erase-title">Radera</h4>
      <p>
        Löparna anonymiseras, också i loppens tidtagning och logg (avslutade lopp och lopp de bytt från), e-postadressen
        och telefonnumret tas bort överallt, inloggningar avslutas. Betalningarna finns kvar för bokföringen med belopp,
        datum, referens och status. Det går inte att ångra.
      </p>
      {data.openPayment && (
        <p className="alert alert-warning">
          En Swish-betalning är inte avslutad. Vänta tills den är betald eller avbruten innan du raderar.
        </p>
      )}
      <Field label={wanted.label}>
        {(control) => (
          <input
            {...control}
            type="text"
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

function ErasedNote({ who, counts }: { who: string; counts: ErasedCounts }) {
  return (
    <div className="alert alert-success" role="status">
      <p>
        <strong>Personuppgifterna för {who} är raderade.</strong>
      </p>
      <p>
        Anonymiserade: {count(counts.registrations, "anmälan", "anmälningar")},{" "}
        {count(counts.runners, "löpare", "löpare")} (i {count(counts.raceRunners, "lopp", "lopp")}). Rensade på
        telefonnummer och meddelande: {count(counts.payments, "betalning", "betalningar")}. Borttagna: adressen i{" "}
        {count(counts.emails, "mejl", "mejl")}, {count(counts.sessions, "inloggning", "inloggningar")},{" "}
        {count(counts.loginCodes, "inloggningskod", "inloggningskoder")}.
      </p>
    </div>
  );
}
