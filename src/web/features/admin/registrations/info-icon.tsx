/** The info icon of a registration row ('i' in a circle), drawn in currentColor; its button carries the name. */
export function InfoIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 10.5v6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="12" cy="7.3" r="1.35" fill="currentColor" />
    </svg>
  );
}
