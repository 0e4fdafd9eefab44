import { useDocumentTitle } from "../lib/use-document-title";

/**
 * The honest placeholder for a screen that a later issue builds: the route exists (deep links and navigation
 * work), the page says plainly that it is not there yet. Inside the admin shell (whose h1 is 'Admin Panel')
 * the heading is an h2.
 */
export function ComingSoon({ title, level = 1 }: { title: string; level?: 1 | 2 }) {
  useDocumentTitle(title);
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <section className="page coming-soon">
      <Heading>{title}</Heading>
      <p>Den här sidan kommer snart.</p>
    </section>
  );
}
