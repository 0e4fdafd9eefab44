/**
 * An admin address that leads nowhere (a typo, an old bookmark): said plainly inside the admin shell, with the
 * way back to the admin start.
 */
import { ButtonLink } from "../../components/ui/button";
import { useDocumentTitle } from "../../lib/use-document-title";

export default function AdminNotFoundPage() {
  useDocumentTitle("Sidan finns inte");
  return (
    <section className="page">
      <h2>Sidan finns inte</h2>
      <p>Det finns ingen adminsida på den här adressen. Kontrollera länken eller välj en sida i menyn.</p>
      <p>
        <ButtonLink to="/admin">Till adminpanelen</ButtonLink>
      </p>
    </section>
  );
}
