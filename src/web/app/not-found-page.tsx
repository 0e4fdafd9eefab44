import { ButtonLink } from "../components/ui/button";
import { useDocumentTitle } from "../lib/use-document-title";

export function NotFoundPage() {
  useDocumentTitle("Sidan finns inte");
  return (
    <section className="page">
      <h1>Sidan finns inte</h1>
      <p>Adressen du följde leder ingenstans. Kanske har sidan flyttat, eller så blev det ett skrivfel.</p>
      <p>
        <ButtonLink to="/">Till startsidan</ButtonLink>
      </p>
    </section>
  );
}
