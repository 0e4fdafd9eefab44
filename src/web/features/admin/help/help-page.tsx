/**
 * /admin/hjalp ('Hjälp' in the admin menu): the volunteers' guide for the bib desk and the finish line
 * (volunteer-guide.ts holds the text and the pictures). On a phone one column, each section's pictures under its
 * steps; 'Skriv ut' prints it on at most two A4 pages without the admin shell (help.css). A lazy chunk in the admin
 * folder, so the admin service worker keeps it, and its pictures, for a phone without a connection.
 */
import { Button } from "../../../components/ui/button";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { GUIDE_LEAD, GUIDE_SECTIONS, GUIDE_TITLE, guideParts } from "./volunteer-guide";
import "./help.css";

/** A step's text with its screen texts drawn as labels. */
function Step({ text }: { text: string }) {
  return (
    <>
      {guideParts(text).map((part, i) =>
        part.screen ? (
          <q key={i} className="guide-ui">
            {part.text}
          </q>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

export default function HelpPage() {
  useDocumentTitle(GUIDE_TITLE);
  return (
    <article className="page volunteer-guide">
      <header className="guide-head">
        <h2>{GUIDE_TITLE}</h2>
        <p className="guide-lead">
          <Step text={GUIDE_LEAD} />
        </p>
        <Button className="no-print" onClick={() => window.print()}>
          Skriv ut
        </Button>
      </header>
      {GUIDE_SECTIONS.map((section) => (
        <section
          key={section.id}
          id={`hjalp-${section.id}`}
          className={`guide-section${section.images.length ? "" : " guide-section-text"}`}
          aria-labelledby={`hjalp-${section.id}-title`}
        >
          <h3 id={`hjalp-${section.id}-title`}>
            <Step text={section.title} />
          </h3>
          <ul className="guide-steps">
            {section.steps.map((step) => (
              <li key={step}>
                <Step text={step} />
              </li>
            ))}
          </ul>
          {section.images.length > 0 && (
            <div className="guide-images">
              {section.images.map((img) => (
                <img key={img.src} src={img.src} alt={img.alt} width={img.width} height={img.height} />
              ))}
            </div>
          )}
        </section>
      ))}
    </article>
  );
}
