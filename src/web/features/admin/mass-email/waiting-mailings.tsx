/**
 * Mailings left waiting or failed (issue 39, item 4), on both mass e-mail screens: each mass mailing with someone
 * still waiting or refused by the provider on a line of its own, and the results mails to families one line per
 * race with how many families wait. Each line can be resumed ('Fortsätt'): what waits is handed to the queue again
 * and what the provider refused is tried again; nobody gets a second copy (src/worker/mass-email/mailings.ts). The
 * section is shown while something waits (and after a resume, with what it did); the list is polled, so a line
 * goes once its mail has gone out.
 */
import { useId, useState } from "react";
import type { MailingsResumed, WaitingMailing, WaitingResultsMails } from "../../../../shared/mailings";
import { distanceLabel } from "../../../../shared/distances";
import { partDistanceKm } from "../../../../shared/race-id";
import { formatSwedishDateTime } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { useWaitingMailings } from "./api/get-waiting-mailings";
import { useResumeMailing } from "./api/resume-mailing";
import { useResumeResultsMails } from "./api/resume-results-mails";

const AUDIENCE_TEXT: Record<WaitingMailing["audience"], string> = {
  previous: "Tidigare löpare",
  current: "Registrerade löpare",
};

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a resume did, in a sentence. */
export function resumedText(result: MailingsResumed): string {
  if (result.requeued === 0) return "Inget att skicka vidare: det som väntar är redan på väg.";
  const retried = result.retried > 0 ? ` (${result.retried} av dem hade misslyckats)` : "";
  return `Skickas vidare: ${result.requeued} mejl lämnade till kön igen${retried}.`;
}

interface Outcome {
  ok: boolean;
  text: string;
}

type Report = (outcome: Outcome) => void;

export function WaitingMailings() {
  const query = useWaitingMailings();
  const headingId = useId();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const data = query.data;
  const empty = !data || data.mailings.length + data.results.length === 0;
  if (!query.isError && empty && outcome === null) return null;
  return (
    <section className="mass-email-waiting" aria-labelledby={headingId}>
      <h3 id={headingId}>Utskick som väntar</h3>
      {query.isError ? (
        <div className="alert alert-error" role="alert">
          <p>{query.error.message}</p>
          <Button size="small" onClick={() => void query.refetch()}>
            Försök igen
          </Button>
        </div>
      ) : empty ? (
        <p className="muted">Inget väntar längre.</p>
      ) : (
        <>
          <p className="muted">
            Mejl som ännu inte har gått ut, eller som leverantören inte tog emot. Fortsätt, så skickas de (ingen får
            något två gånger).
          </p>
          <ul className="mass-email-waiting-list" aria-label="Utskick som väntar">
            {data.results.map((line) => (
              <ResultsLine key={line.race} line={line} report={setOutcome} />
            ))}
            {data.mailings.map((line) => (
              <MailingLine key={line.id} line={line} report={setOutcome} />
            ))}
          </ul>
        </>
      )}
      {outcome && (
        <p
          className={outcome.ok ? "mass-email-waiting-outcome" : "alert alert-error"}
          role={outcome.ok ? "status" : "alert"}
        >
          {outcome.text}
        </p>
      )}
    </section>
  );
}

function Counts({ waiting, failed, one, many }: { waiting: number; failed: number; one: string; many: string }) {
  return (
    <span className="mass-email-waiting-counts">
      {waiting > 0 && <span data-testid="waiting-count">{count(waiting, one, many)} väntar</span>}
      {failed > 0 && <span data-testid="failed-count">{count(failed, one, many)} misslyckades</span>}
    </span>
  );
}

const reporting = (report: Report) => ({
  onSuccess: (result: MailingsResumed) => report({ ok: true, text: resumedText(result) }),
  onError: (err: Error) => report({ ok: false, text: err.message }),
});

function ResultsLine({ line, report }: { line: WaitingResultsMails; report: Report }) {
  const resume = useResumeResultsMails();
  const distance = partDistanceKm(line.race);
  const title = `Resultatmejl${distance ? `, ${distanceLabel(distance)}` : ""}`;
  return (
    <li className="mass-email-waiting-line" aria-label={`${title} (${line.race})`}>
      <div className="mass-email-waiting-what">
        <strong>{title}</strong> <span className="mass-email-race">{line.race}</span>
        <Counts waiting={line.waiting} failed={line.failed} one="familj" many="familjer" />
        <span className="muted">sedan {formatSwedishDateTime(line.since)}</span>
      </div>
      <Button size="small" loading={resume.isPending} onClick={() => resume.mutate(line.race, reporting(report))}>
        Fortsätt
      </Button>
    </li>
  );
}

function MailingLine({ line, report }: { line: WaitingMailing; report: Report }) {
  const resume = useResumeMailing();
  return (
    <li className="mass-email-waiting-line" aria-label={line.subject}>
      <div className="mass-email-waiting-what">
        <strong className="mass-email-subject">{line.subject}</strong>
        <span className="muted">
          {AUDIENCE_TEXT[line.audience]}, {count(line.totalRecipients, "mottagare", "mottagare")}
        </span>
        <Counts waiting={line.waiting} failed={line.failed} one="mottagare" many="mottagare" />
        <span className="muted">skickat {formatSwedishDateTime(line.createdAt)}</span>
      </div>
      <Button size="small" loading={resume.isPending} onClick={() => resume.mutate(line.id, reporting(report))}>
        Fortsätt
      </Button>
    </li>
  );
}
