/** The course map page's description, for its <meta name="description"> and Open Graph tags (entry-prerender.tsx). */
import { SEASON } from "../../../shared/season";

export const COURSES_DESCRIPTION = `Karta över ${SEASON.siteName}s fyra banor, 0,8, 1,6, 2,8 och 5,6 km, på asfalt genom byn med start och mål vid skolans matsal.`;
