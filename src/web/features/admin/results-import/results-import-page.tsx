/**
 * /admin/resultat: the organiser imports a year's results file for one distance, or the course records file.
 * Every line is checked here first with the shared file rules and again by the Worker; a file with a bad line is
 * refused with each bad line named, and nothing is stored. Importing the same year and distance again replaces
 * it. The same import as a command: scripts/import-results.mjs (README, "Configuration per season").
 */
import { useMemo, useState, type ChangeEvent, type FormEvent } from "react";
import { DISTANCES, distanceTabLabel, type DistanceKm } from "../../../../shared/distances";
import { RECORDS_HEADER } from "../../../../shared/records-file";
import { RESULTS_HEADER } from "../../../../shared/results-file";
import { stockholmYear } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { LoadState } from "../../../components/ui/load-state";
import { ApiError } from "../../../lib/api";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useServerClock } from "../../../lib/config/server-clock";
import { kmText } from "../../../lib/season-text";
import { useStoredRecords, useStoredResults } from "./api/get-stored-results";
import { useImportResults, type ImportAnswer } from "./api/import-results";
import {
  checkImport,
  guessFromFileName,
  lineErrorsFromServer,
  type ImportDraft,
  type ImportKind,
} from "./import-check";
import "./results-import.css";

const EMPTY: ImportDraft = { kind: "results", year: "", distance: "", text: "" };
/** Shown in full up to this many; the rest are counted. */
const MAX_LISTED_ERRORS = 50;

export default function ResultsImportPage() {
  useDocumentTitle("Importera resultat");
  const thisYear = stockholmYear(useServerClock().now());
  const [draft, setDraft] = useState<ImportDraft>(EMPTY);
  const [fileName, setFileName] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<{ message: string; lines: { line: number; message: string }[] }>();
  const [done, setDone] = useState<ImportAnswer | null>(null);
  const importer = useImportResults();
  const check = useMemo(() => checkImport(draft, thisYear), [draft, thisYear]);

  function change(patch: Partial<ImportDraft>) {
    setDraft((d) => ({ ...d, ...patch }));
    setServerErrors(undefined);
    setDone(null);
  }

  async function pickFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    change({ ...guessFromFileName(file.name), text: await file.text() });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (!check.request) return;
    importer.mutate(check.request, {
      onSuccess: (answer) => {
        setDone(answer);
        setSubmitted(false);
      },
      onError: (err) =>
        setServerErrors({
          message: err.message,
          lines: err instanceof ApiError ? lineErrorsFromServer(err.errors) : [],
        }),
    });
  }

  const lineErrors = serverErrors?.lines.length ? serverErrors.lines : check.lineErrors;
  const showFieldErrors = submitted ? check.fieldErrors : {};
  const header = (draft.kind === "records" ? RECORDS_HEADER : RESULTS_HEADER).join(";");

  return (
    <section className="page results-import">
      <h2>Importera resultat</h2>
      <p className="muted">
        Ett års resultat läses in per distans, en fil i taget; banrekorden som en egen fil. Varje rad kontrolleras
        först. Finns det en felaktig rad sparas ingenting, och raden visas med nummer och orsak. En ny import av samma
        år och distans ersätter den gamla.
      </p>

      <form className="form import-form" onSubmit={submit} noValidate aria-labelledby="import-title">
        <h3 id="import-title">Ny import</h3>
        <fieldset className="import-kind">
          <legend className="field-label">Vad importeras?</legend>
          {(
            [
              ["results", "Resultat för ett år och en distans"],
              ["records", "Banrekord"],
            ] as [ImportKind, string][]
          ).map(([kind, label]) => (
            <label key={kind} className="radio">
              <input
                type="radio"
                name="kind"
                value={kind}
                checked={draft.kind === kind}
                onChange={() => change({ kind })}
              />
              {label}
            </label>
          ))}
        </fieldset>

        {draft.kind === "results" && (
          <div className="field-row">
            <Field label="År" error={showFieldErrors.year}>
              {(control) => (
                <input
                  {...control}
                  name="year"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={4}
                  value={draft.year}
                  onChange={(e) => change({ year: e.target.value.replace(/\D/g, "") })}
                />
              )}
            </Field>
            <Field label="Distans" error={showFieldErrors.distance}>
              {(control) => (
                <select
                  {...control}
                  name="distance"
                  value={draft.distance}
                  onChange={(e) => change({ distance: e.target.value as DistanceKm | "" })}
                >
                  <option value="">Välj distans …</option>
                  {DISTANCES.map((d) => (
                    <option key={d} value={d}>
                      {kmText(d)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}

        <Field
          label="Fil"
          hint={
            fileName
              ? `Vald fil: ${fileName}. En fil som heter resultat-ÅÅÅÅ-DD.csv fyller i år och distans.`
              : "CSV med semikolon (;) mellan fälten. En fil som heter resultat-ÅÅÅÅ-DD.csv fyller i år och distans."
          }
        >
          {(control) => (
            <input {...control} type="file" name="file" accept=".csv,.txt,text/csv,text/plain" onChange={pickFile} />
          )}
        </Field>
        <Field label="Rader" error={showFieldErrors.text} hint={`Första raden får vara rubrikraden: ${header}`}>
          {(control) => (
            <textarea
              {...control}
              name="text"
              className="import-text"
              spellCheck={false}
              rows={8}
              value={draft.text}
              onChange={(e) => change({ text: e.target.value })}
            />
          )}
        </Field>

        {draft.text.trim() !== "" && lineErrors.length === 0 && check.rows > 0 && !done && (
          <p className="import-summary" role="status">
            {check.rows} {draft.kind === "records" ? "rekord" : "rader"} ser bra ut.
          </p>
        )}
        {lineErrors.length > 0 && (
          <div className="alert alert-error import-errors" role="alert">
            <p>
              {serverErrors?.message ??
                `${lineErrors.length} ${lineErrors.length === 1 ? "rad är felaktig" : "rader är felaktiga"}. Rätta ${
                  lineErrors.length === 1 ? "den" : "dem"
                } innan du importerar; inget sparas förrän alla rader är rätt.`}
            </p>
            <ul>
              {lineErrors.slice(0, MAX_LISTED_ERRORS).map((e) => (
                <li key={e.line}>{e.message}</li>
              ))}
            </ul>
            {lineErrors.length > MAX_LISTED_ERRORS && <p>… och {lineErrors.length - MAX_LISTED_ERRORS} rader till.</p>}
          </div>
        )}
        {serverErrors && serverErrors.lines.length === 0 && (
          <p className="alert alert-error" role="alert">
            {serverErrors.message}
          </p>
        )}
        {done && (
          <p className="alert alert-success" role="status">
            {done.kind === "records"
              ? `Banrekorden är importerade: ${done.rows} st.`
              : `Importerat: ${done.year}, ${kmText(done.distance ?? "5.6")}, ${done.rows} löpare${
                  done.replaced ? ` (ersatte ${done.replaced})` : ""
                }.`}
          </p>
        )}
        <Button type="submit" variant="primary" loading={importer.isPending}>
          Importera
        </Button>
      </form>

      <StoredResults />
    </section>
  );
}

/** What is stored now, per year and distance, with the file a visitor's page reads. */
function StoredResults() {
  const sets = useStoredResults();
  const records = useStoredRecords();
  const years = [...new Set((sets.data ?? []).map((s) => s.year))];
  return (
    <section aria-labelledby="stored-title" className="stored-results">
      <h3 id="stored-title">Inlästa resultat</h3>
      <LoadState query={sets} loading="Hämtar …" />
      {sets.data && years.length === 0 && <p>Inga resultat är inlästa ännu.</p>}
      {years.length > 0 && (
        <div className="table-scroll">
          <table className="table data-table">
            <thead>
              <tr>
                <th scope="col">År</th>
                {DISTANCES.map((d) => (
                  <th scope="col" key={d} className="num">
                    {distanceTabLabel(d)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {years.map((year) => (
                <tr key={year}>
                  <th scope="row">{year}</th>
                  {DISTANCES.map((d) => {
                    const set = sets.data?.find((s) => s.year === year && s.distance === d);
                    return (
                      <td key={d} className="num">
                        {set ? (
                          <a href={`/resultat/${set.file}`} download aria-label={`${set.file}, ${set.runners} löpare`}>
                            {set.runners}
                          </a>
                        ) : (
                          "–"
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Banrekord som visas</h3>
      <LoadState query={records} loading="Hämtar …" />
      {records.data && (
        <ul className="stored-records">
          {records.data.map((r) => (
            <li key={r.distance}>
              {kmText(r.distance)}: {r.name}, {r.year}, {r.time}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
