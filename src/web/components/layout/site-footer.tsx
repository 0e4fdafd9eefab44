import type { ReactNode } from "react";
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
  const mail = <a href={`mailto:${SEASON.contactEmail}`}>{SEASON.contactEmail}</a>;
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <FooterSection id="footer-share" title="Dela loppet">
          <ul className="footer-list">
            {SHARE_LINKS.map((s) => (
              <li key={s.label}>
                <a href={s.href} target="_blank" rel="noopener noreferrer">
                  Dela på {s.label}
                </a>
              </li>
            ))}
          </ul>
        </FooterSection>
        <FooterSection id="footer-links" title="Länkar">
          <ul className="footer-list">
            {FOOTER_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </FooterSection>
        <FooterSection id="footer-sponsors" title="Sponsorer">
          <p>Vill ditt företag synas här? Kontakta oss på {mail} så berättar vi mer om hur ni kan stötta loppet.</p>
        </FooterSection>
        <FooterSection id="footer-contact" title="Kontakt">
          <p>Frågor om loppet eller din anmälan? Mejla {mail}.</p>
        </FooterSection>
      </div>
      <p className="footer-bottom">
        {SITE_NAME} {SEASON.year} · ett ideellt lopp för hela familjen
      </p>
    </footer>
  );
}

function FooterSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="footer-heading">
        {title}
      </h2>
      {children}
    </section>
  );
}
