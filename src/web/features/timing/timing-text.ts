/** The stopwatch page's description, shared by its pre-render (src/web/entry-prerender.tsx) and nothing else. */
export const TIMING_DESCRIPTION =
  "Ett stoppur i mobilen för träning och tävling: start och stopp, mellantider och en +1-räknare. Klockan går rätt även när skärmen släcks, och sidan fungerar utan nät när den väl har laddats.";
