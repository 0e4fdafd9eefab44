/** The start lists' description, for its <meta name="description"> and Open Graph tags (entry-prerender.tsx). */
import { SEASON } from "../../../shared/season";

export const START_LISTS_DESCRIPTION = `Startlistor för ${SEASON.siteName}: alla anmälda löpare per distans med startnummer, klass och förening – och resultaten live medan loppet pågår.`;
