import { SEASON } from "../../../shared/season";

/** The terms page's description (its pre-render, src/web/entry-prerender.tsx). */
export const TERMS_DESCRIPTION = `Allmänna villkor för ${SEASON.siteName}: anmälan, avgifter och betalning, återbud, hälsa och säkerhet, bilder från loppet och hur vi hanterar dina personuppgifter.`;
