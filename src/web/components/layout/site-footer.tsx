import { Link } from "react-router";
import { SEASON } from "../../../shared/season";
import { SITE_NAME, SITE_URL } from "../../lib/site";

const SHARE_TEXT = `${SITE_NAME} ${SEASON.year} – ett lopp för hela familjen. Följ med!`;

/** Plain share links: no third-party scripts or widgets load on the site. */
const SHARE_LINKS = [
  { label: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(SITE_URL)}` },
  {
    label: "X",
    href: `https://x.com/intent/post?url=${encodeURIComponent(SITE_URL)}&text=${encodeURIComponent(SHARE_TEXT)}`,
  },
];

const FOOTER_LINKS = [
  { to: "/anmalan", label: "Anmälan och min anmälan" },
  { to: "/startlistor", label: "Startlistor" },
  { to: "/resultat", label: "Resultat" },
  { to: "/banor", label: "Banor" },
  { to: "/galleri", label: "Galleri" },
  { to: "/allmanna-villkor", label: "Allmänna villkor" },
];

export function SiteFooter() {
  const mailto = `mailto:${SEASON.contactEmail}`;
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <section aria-labelledby="footer-share">
          <h2 id="footer-share" className="footer-heading">
            Dela loppet
          </h2>
          <ul className="footer-list">
            {SHARE_LINKS.map((s) => (
              <li key={s.label}>
                <a href={s.href} target="_blank" rel="noopener noreferrer">
                  Dela på {s.label}
                </a>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-links">
          <h2 id="footer-links" className="footer-heading">
            Länkar
          </h2>
          <ul className="footer-list">
            {FOOTER_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-sponsors">
          <h2 id="footer-sponsors" className="footer-heading">
            Sponsorer
          </h2>
          <p>
            Vill ditt företag synas här? Kontakta oss på <a href={mailto}>{SEASON.contactEmail}</a> så berättar vi mer
            om hur ni kan stötta loppet.
          </p>
        </section>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-heading">
            Kontakt
          </h2>
          <p>
            Frågor om loppet eller din anmälan? Mejla <a href={mailto}>{SEASON.contactEmail}</a>.
          </p>
        </section>
      </div>
      <p className="footer-bottom">
        {SITE_NAME} {SEASON.year} · ett ideellt lopp för hela familjen
      </p>
    </footer>
  );
}
