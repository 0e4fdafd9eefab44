/**
 * /admin/behorigheter ('Behörigheter', an organiser's screen: issue 43): who is admin and in which role, a person
 * added by e-mail with a role, a role changed and a person removed (each audited by the server). The addresses in
 * ADMIN_EMAILS are organisers always and have no buttons; nobody changes their own role. On a phone each admin is two
 * lines (address, then role and buttons), nothing scrolling sideways.
 */
import { useState, type FormEvent } from "react";
import { ADMIN_ROLES, ROLE_LABEL, type AdminEntry, type AdminRole } from "../../../../shared/admin-roles";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { LoadState } from "../../../components/ui/load-state";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useConfig } from "../../../lib/config/get-config";
import { useChangeAdmins } from "./api/change-admins";
import { useAdmins } from "./api/get-admins";
import "./admins.css";

export default function AdminsPage() {
  useDocumentTitle("Behörigheter");
  const admins = useAdmins();
  const change = useChangeAdmins();
  const me = useConfig().data?.adminEmail ?? null;

  return (
    <section className="page admins">
      <h2>Behörigheter</h2>
      <p className="muted">
        {ROLE_LABEL.volunteer}: loppskärmen och tidtagningen, nummerlappar, biljettkassan, startlistor och
        tävlingslistan. {ROLE_LABEL.organiser}: allt det och anmälningar, återbetalningar, exporter, personuppgifter,
        massutskick, kampanjkoder, Epassi, resultatimport, analys, återställning av lopp, officiella resultat och den
        här sidan. Adresser i ADMIN_EMAILS är alltid arrangörer.
      </p>
      {change.isError && (
        <p className="alert alert-error" role="alert">
          {change.error.message}
        </p>
      )}
      <LoadState query={admins} loading="Hämtar admins …" />
      {admins.data && (
        <ul className="admins-list" aria-label="Admins">
          {admins.data.admins.map((admin) => (
            <AdminRow key={admin.email} admin={admin} self={admin.email === me} change={change} />
          ))}
        </ul>
      )}
      <AddAdminForm change={change} />
    </section>
  );
}

type Change = ReturnType<typeof useChangeAdmins>;

function AdminRow({ admin, self, change }: { admin: AdminEntry; self: boolean; change: Change }) {
  const busy = change.isPending && change.variables?.email === admin.email;
  const locked = admin.fixed || self;
  return (
    <li className="admins-row" data-email={admin.email}>
      <span className="admins-email">
        {admin.email}
        {self && " (du)"}
      </span>
      {locked ? (
        <span className="admins-role">
          {ROLE_LABEL[admin.role]}
          {admin.fixed && <span className="muted"> · ADMIN_EMAILS</span>}
        </span>
      ) : (
        <span className="admins-actions">
          <select
            aria-label={`Roll för ${admin.email}`}
            value={admin.role}
            disabled={busy}
            onChange={(e) =>
              change.mutate({ type: "change-role", email: admin.email, role: e.target.value as AdminRole })
            }
          >
            {ADMIN_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABEL[role]}
              </option>
            ))}
          </select>
          <Button
            size="small"
            loading={busy && change.variables?.type === "remove"}
            onClick={() => {
              if (window.confirm(`Ta bort ${admin.email} som admin?`)) {
                change.mutate({ type: "remove", email: admin.email });
              }
            }}
          >
            Ta bort
          </Button>
        </span>
      )}
    </li>
  );
}

function AddAdminForm({ change }: { change: Change }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<AdminRole>("volunteer");
  const [error, setError] = useState<string | null>(null);
  const adding = change.isPending && change.variables?.type === "add";

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim()) {
      setError("Ange en giltig e-postadress.");
      return;
    }
    change.mutate(
      { type: "add", email: email.trim(), role },
      { onSuccess: () => setEmail(""), onError: (err) => setError(err.message) },
    );
  }

  return (
    <form className="admins-form" onSubmit={submit} noValidate aria-labelledby="admins-form-title">
      <h3 id="admins-form-title">Lägg till admin</h3>
      <Field label="E-post" error={error}>
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <Field label="Roll">
        {(control) => (
          <select {...control} value={role} onChange={(e) => setRole(e.target.value as AdminRole)}>
            {ADMIN_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Button type="submit" variant="primary" loading={adding}>
        Lägg till
      </Button>
    </form>
  );
}
