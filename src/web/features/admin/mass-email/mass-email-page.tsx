/**
 * The mass e-mail screen, shared by /admin/email-previous-runners and /admin/email-runners (admin area §2): the
 * recipient count and list, subject and message, and a send button that stays disabled at 0 recipients. After
 * sending, a progress bar follows the mailing (polled every second) until it is done, then the result and the
 * spec's snackbars (5000 ms). A mailing that stops moving can be resumed; nobody gets a second copy. Every mailing
 * left waiting or failed, this screen's or not (the results mails to families too), is listed above the form and
 * can be resumed there (waiting-mailings.tsx).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "../../../components/ui/button";
import { DataGrid, type GridColumn } from "../../../components/ui/data-grid";
import { Field } from "../../../components/ui/field";
import { Snackbar, useSnackbar } from "../../../components/ui/snackbar";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useMailing, type MailingProgress } from "./api/get-mailing";
import { useRecipientCount } from "./api/get-recipient-count";
import { useRecipients, type Recipient } from "./api/get-recipients";
import { useResumeMailing } from "./api/resume-mailing";
import { useSendMailing } from "./api/send-mailing";
import { AUDIENCES, MESSAGE_MAX, SUBJECT_MAX, TEXTS, type Audience } from "./audiences";
import { WaitingMailings } from "./waiting-mailings";
import "./mass-email.css";

/** No progress for this long while recipients are still waiting: offer to resume. */
export const STALL_MS = 30_000;

export function MassEmailPage({ audience }: { audience: Audience }) {
  const screen = AUDIENCES[audience];
  useDocumentTitle(screen.title);
  const count = useRecipientCount(audience);
  const recipients = useRecipients(audience);
  const snackbar = useSnackbar();
  const { show } = snackbar;

  useEffect(() => {
    if (count.isError) show(TEXTS.countError, "error");
  }, [count.isError, show]);
  useEffect(() => {
    if (recipients.isError) show(TEXTS.listError, "error");
    else if (recipients.isSuccess && (recipients.data === null || recipients.data.length === 0)) {
      show(TEXTS.noRunners, "warning");
    }
  }, [recipients.isError, recipients.isSuccess, recipients.data, show]);

  const [mailingId, setMailingId] = useState<number | null>(null);

  return (
    <section className="page mass-email">
      <h2>{screen.title}</h2>
      <p className="muted">{screen.lead}</p>
      <p className="mass-email-count" aria-live="polite">
        {count.isPending ? (
          "Räknar mottagare …"
        ) : count.isError ? (
          <span className="mass-email-count-error">Kunde inte räkna mottagarna.</span>
        ) : (
          <>
            Mottagare: <strong data-testid="recipient-count">{count.data}</strong>
          </>
        )}
      </p>
      <WaitingMailings />
      {mailingId === null ? (
        <MailingForm
          audience={audience}
          recipientCount={count.data ?? 0}
          onStarted={setMailingId}
          onFailed={() => show(TEXTS.sendError, "error")}
        />
      ) : (
        <MailingStatus
          id={mailingId}
          onDone={(result) =>
            result.sentCount === 0 ? show(TEXTS.noneSent, "warning") : show(TEXTS.sent(result.sentCount), "success")
          }
          onNew={() => {
            setMailingId(null);
            void count.refetch();
            void recipients.refetch();
          }}
        />
      )}
      <RecipientList audience={audience} query={recipients} />
      <Snackbar message={snackbar.message} onClose={snackbar.close} />
    </section>
  );
}

interface MailingFormProps {
  audience: Audience;
  recipientCount: number;
  onStarted: (id: number) => void;
  onFailed: () => void;
}

function MailingForm({ audience, recipientCount, onStarted, onFailed }: MailingFormProps) {
  const [subject, setSubject] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const send = useSendMailing(audience);
  const errorId = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (subject.trim() === "" || message.trim() === "") {
      setError(TEXTS.required);
      return;
    }
    if (recipientCount === 0) return;
    setError(null);
    send.mutate(
      { subject: subject.trim(), message },
      {
        onSuccess: (started) => onStarted(started.id),
        onError: (err) => {
          setError(err.message);
          onFailed();
        },
      },
    );
  }

  const invalid = error === TEXTS.required;
  return (
    <form className="mass-email-form" onSubmit={submit} noValidate aria-label="Nytt utskick">
      <Field label="Ämne">
        {(control) => (
          <input
            {...control}
            name="subject"
            maxLength={SUBJECT_MAX}
            autoComplete="off"
            value={subject}
            aria-invalid={invalid && subject.trim() === "" ? true : undefined}
            aria-describedby={invalid ? errorId : undefined}
            onChange={(e) => {
              setSubject(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <Field label="Meddelande" hint="Skrivs som vanlig text. En länk för att avsluta utskicken läggs till sist.">
        {(control) => (
          <textarea
            {...control}
            name="message"
            rows={10}
            maxLength={MESSAGE_MAX}
            value={message}
            aria-invalid={invalid && message.trim() === "" ? true : undefined}
            aria-describedby={[control["aria-describedby"], invalid ? errorId : ""].filter(Boolean).join(" ")}
            onChange={(e) => {
              setMessage(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      {error && (
        <p className="alert alert-error" role="alert" id={errorId}>
          {error}
        </p>
      )}
      {recipientCount === 0 && <p className="muted">Det finns inga mottagare, så utskicket kan inte skickas.</p>}
      <Button type="submit" variant="primary" loading={send.isPending} disabled={recipientCount === 0}>
        {recipientCount === 1 ? "Skicka till 1 mottagare" : `Skicka till ${recipientCount} mottagare`}
      </Button>
    </form>
  );
}

interface MailingStatusProps {
  id: number;
  onDone: (result: MailingProgress) => void;
  onNew: () => void;
}

function MailingStatus({ id, onDone, onNew }: MailingStatusProps) {
  const mailing = useMailing(id);
  const resume = useResumeMailing();
  const data = mailing.data;
  const handled = data ? data.sentCount + data.failedCount + data.skippedCount : 0;
  const [lastMove, setLastMove] = useState(() => ({ handled: -1, at: Date.now() }));
  const [now, setNow] = useState(() => Date.now());
  const reported = useRef(false);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- when progress last moved is the moment this screen saw it move (the stall warning counts from it).
    if (data && handled !== lastMove.handled) setLastMove({ handled, at: Date.now() });
  }, [data, handled, lastMove.handled]);
  useEffect(() => {
    if (data?.done) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [data?.done]);
  useEffect(() => {
    if (data?.done && !reported.current) {
      reported.current = true;
      onDone(data);
    }
  }, [data, onDone]);

  if (!data) {
    return mailing.isError ? (
      <div className="alert alert-error" role="alert">
        <p>{mailing.error.message}</p>
        <Button size="small" onClick={() => void mailing.refetch()}>
          Försök igen
        </Button>
      </div>
    ) : (
      <p role="status">Utskicket startar …</p>
    );
  }

  const stalled = !data.done && now - lastMove.at > STALL_MS;
  const percent = data.totalRecipients === 0 ? 100 : Math.round((handled / data.totalRecipients) * 100);
  return (
    <div className="mass-email-status">
      <h3>{data.done ? "Utskicket är klart" : "Skickar …"}</h3>
      <p className="mass-email-subject">
        Ämne: <strong>{data.subject}</strong>
      </p>
      <progress
        className="mass-email-progress"
        max={data.totalRecipients}
        value={handled}
        aria-label="Utskickets förlopp"
        aria-valuetext={`${handled} av ${data.totalRecipients} klara`}
      />
      <p aria-live="polite" data-testid="mailing-progress">
        {handled} av {data.totalRecipients} klara ({percent} %)
        {!data.done && ` · ${data.pending} väntar`}
      </p>
      {data.done && (
        <dl className="mass-email-result" aria-label="Resultat">
          <div>
            <dt>Mottagare</dt>
            <dd data-testid="result-total">{data.totalRecipients}</dd>
          </div>
          <div>
            <dt>Skickade</dt>
            <dd data-testid="result-sent">{data.sentCount}</dd>
          </div>
          <div>
            <dt>Misslyckade</dt>
            <dd data-testid="result-failed">{data.failedCount}</dd>
          </div>
          {data.skippedCount > 0 && (
            <div>
              <dt>Avslutade utskick</dt>
              <dd>{data.skippedCount}</dd>
            </div>
          )}
        </dl>
      )}
      {data.errors.length > 0 && (
        <div className="mass-email-errors">
          <h4>Fel</h4>
          <ul>
            {data.errors.map((e) => (
              <li key={e.email}>
                <strong>{e.email}</strong>: {e.error}
              </li>
            ))}
          </ul>
        </div>
      )}
      {stalled && (
        <div className="alert alert-warning" role="alert">
          <p>Utskicket verkar ha stannat. Fortsätt, så skickas det till dem som väntar (ingen får det två gånger).</p>
          <Button size="small" loading={resume.isPending} onClick={() => resume.mutate(id)}>
            Fortsätt utskicket
          </Button>
          {resume.isError && <p>{resume.error.message}</p>}
        </div>
      )}
      {data.done && (
        <Button variant="primary" onClick={onNew}>
          Nytt utskick
        </Button>
      )}
    </div>
  );
}

interface RecipientListProps {
  audience: Audience;
  query: ReturnType<typeof useRecipients>;
}

const NAME: GridColumn<Recipient> = { key: "name", header: "Namn", cell: (r) => r.name, rowHeader: true };
const EMAIL: GridColumn<Recipient> = {
  key: "email",
  header: "E-post",
  cell: (r) => r.email,
  className: "mass-email-address",
};
const RACE: GridColumn<Recipient> = {
  key: "race",
  header: "Lopp",
  cell: (r) =>
    (r.race ?? "")
      .split(", ")
      .filter(Boolean)
      .map((race) => (
        <span key={race} className="mass-email-race">
          {race}
        </span>
      )),
};
const COLUMNS = { previous: [NAME, EMAIL], current: [NAME, EMAIL, RACE] } as const;
const TEMPLATES = {
  previous: "minmax(8rem, 1fr) minmax(10rem, 1.3fr)",
  current: "minmax(8rem, 1fr) minmax(10rem, 1.3fr) minmax(8.5rem, 0.8fr)",
} as const;

function RecipientList({ audience, query }: RecipientListProps) {
  return (
    <div className="mass-email-list">
      <h3>Mottagare</h3>
      {query.isPending && <p role="status">Hämtar mottagare …</p>}
      {query.isError && (
        <div className="alert alert-error" role="alert">
          <p>{query.error.message}</p>
          <Button size="small" onClick={() => void query.refetch()}>
            Försök igen
          </Button>
        </div>
      )}
      {query.isSuccess && (query.data === null || query.data.length === 0) && <p className="muted">Inga mottagare.</p>}
      {query.data && query.data.length > 0 && (
        <DataGrid
          label="Mottagare"
          columns={COLUMNS[audience]}
          rows={query.data}
          rowKey={(r) => r.email}
          template={TEMPLATES[audience]}
          resetKey={audience}
        />
      )}
    </div>
  );
}
