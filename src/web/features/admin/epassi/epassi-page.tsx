/**
 * /admin/epassi (tab 'Epassi'): invite a person who paid their fee through Epassi (a wellness benefit). The
 * e-mail carries a single-use code worth one runner's fee at registration; below the form, every invitation sent
 * and whether its code was used. A lazy chunk inside the admin shell.
 */
import { useDocumentTitle } from "../../../lib/use-document-title";
import { InvitationForm } from "./invitation-form";
import { InvitationList } from "./invitation-list";
import "./epassi.css";

export default function EpassiPage() {
  useDocumentTitle("Epassi");
  return (
    <section className="page epassi">
      <h2>Epassi</h2>
      <p className="muted">
        Skicka en kod till den som har betalat sin startavgift via Epassi. Koden betalar en löpares avgift (den dyraste
        i anmälan) och kan användas en gång. Den gäller till och med loppdagen.
      </p>
      <InvitationForm />
      <InvitationList />
    </section>
  );
}
