/** The results page's description, for its <meta name="description"> and Open Graph tags (entry-prerender.tsx). */
import { SEASON } from "../../../shared/season";

export const RESULTS_DESCRIPTION = `Resultat och banrekord från ${SEASON.siteName}: placering, tid, klass och förening på 0,8, 1,6, 2,8 och 5,6 km, från årets lopp och alla tidigare år.`;
