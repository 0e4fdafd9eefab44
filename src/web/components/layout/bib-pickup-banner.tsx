/**
 * 'Nummerlappshämtning sker från 10:00', shown from 7 days before race day until the end of the day after
 * (the server decides; see season-flags.tsx). It is a bar fixed to the bottom of the viewport: it lies over the
 * page instead of pushing it, so its appearance after the config arrives shifts nothing. On the landing page
 * the Worker switches it on in the HTML itself, so it is there from the first paint.
 */
export function BibPickupBanner() {
  return (
    <div className="bib-banner" role="status">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 7v5l3 2" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span>Nummerlappshämtning sker från 10:00</span>
    </div>
  );
}
