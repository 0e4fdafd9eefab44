/**
 * The invitations sent, newest first: name, e-mail, when, the code, who sent it, and whether the code was used
 * (by which registration, when). An invitation whose e-mail never left says 'Ej skickad' and can be sent again.
 */
import { useState } from "react";
import { formatSwedishDateTime } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { LoadState } from "../../../components/ui/load-state";
import { useInvitations, type CodeState, type Invitation } from "./api/get-invitations";
import { useResendInvitation } from "./api/resend-invitation";
import { failureText } from "./invitation-form";

export const STATE_WORDS: Record<CodeState, string> = {
  unused: "Oanvänd",
  reserved: "Reserverad",
  used: "Använd",
  disabled: "Avstängd",
};

function when(iso: string): string {
  return formatSwedishDateTime(Date.parse(iso));
}

/** Who holds or used the code: the registration's e-mail, or the box office. */
function whoUsed(use: NonNullable<Invitation["use"]>): string {
  return use.registrationEmail ?? (use.origin === "kassa" ? "Biljettkassan" : use.payid);
}

function usedText(i: Invitation): string {
  switch (i.state) {
    case "used":
      return `Ja, av ${whoUsed(i.use!)} ${when(i.use!.at)}`;
    case "reserved":
      return `Nej, reserverad av ${whoUsed(i.use!)} sedan ${when(i.use!.at)} (betalningen pågår)`;
    case "disabled":
      return "Nej, koden är avstängd (Kampanjkoder)";
    case "unused":
      return "Nej";
  }
}

export function InvitationList() {
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  function sendAgain(i: Invitation) {
    setOutcome(null);
    resend.mutate(i.id, {
      onSuccess: () => setOutcome({ ok: true, text: `Inbjudan till ${i.email} är skickad.` }),
      onError: (err) => setOutcome({ ok: false, text: failureText(err) }),
    });
  }

  return (
    <section className="epassi-sent" aria-labelledby="epassi-sent-title">
      <h3 id="epassi-sent-title">Skickade inbjudningar</h3>
      <LoadState query={invitations} loading="Hämtar inbjudningar …" />
      {outcome && (
        <p className={`alert ${outcome.ok ? "alert-success" : "alert-error"}`} role={outcome.ok ? "status" : "alert"}>
          {outcome.text}
        </p>
      )}
      {invitations.data?.length === 0 && <p className="muted">Inga inbjudningar ännu.</p>}
      {invitations.data && invitations.data.length > 0 && (
        <ul className="epassi-list" aria-label="Skickade inbjudningar">
          {invitations.data.map((i) => (
            <li key={i.id} className={`epassi-card epassi-${i.state}`}>
              <div className="epassi-head">
                <span className="epassi-name">{i.name}</span>
                <span className={`epassi-badge badge-${i.state}`}>{STATE_WORDS[i.state]}</span>
                {i.sentAt === null && <span className="epassi-badge badge-unsent">Ej skickad</span>}
              </div>
              <dl className="epassi-facts">
                <div>
                  <dt>E-post</dt>
                  <dd>{i.email}</dd>
                </div>
                <div>
                  <dt>Datum</dt>
                  <dd>{when(i.createdAt)}</dd>
                </div>
                <div>
                  <dt>Kod</dt>
                  <dd className="epassi-code">{i.code}</dd>
                </div>
                <div>
                  <dt>Skickad av</dt>
                  <dd>{i.createdBy}</dd>
                </div>
                <div>
                  <dt>Använd</dt>
                  <dd>{usedText(i)}</dd>
                </div>
                {i.sentAt === null && i.sendError && (
                  <div>
                    <dt>Fel</dt>
                    <dd>{i.sendError}</dd>
                  </div>
                )}
              </dl>
              {i.sentAt === null && i.state !== "used" && (
                <Button
                  size="small"
                  loading={resend.isPending && resend.variables === i.id}
                  disabled={resend.isPending}
                  onClick={() => sendAgain(i)}
                  aria-label={`Skicka igen till ${i.name}`}
                >
                  Skicka igen
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
