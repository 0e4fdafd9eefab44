/**
 * The time-dependent parts of the page (registration button, bib-pickup banner) are switched by attributes on
 * <html>, not by React state: the Worker sets them on the pre-rendered landing page from the server clock
 * (src/worker/site/pages-routes.ts), so the first paint is already right, and React never sees a difference between
 * the server render and its first client render. CSS shows or hides the elements in boxes that are always
 * reserved (theme.css), so nothing shifts when they change.
 */
import { useEffect } from "react";
import { useConfig } from "./get-config";

const REGISTRATION_BUTTON_ATTR = "data-registration-button";
const BIB_BANNER_ATTR = "data-bib-banner";
const ON_SITE_ATTR = "data-on-site";

export function SeasonFlagsSync() {
  const season = useConfig().data?.season;
  const showButton = season?.showRegistrationButton;
  const showBanner = season?.showBibPickupBanner;
  const onSite = season?.onSiteRegistration ?? false;
  useEffect(() => {
    if (showButton === undefined || showBanner === undefined) return;
    const html = document.documentElement;
    html.setAttribute(REGISTRATION_BUTTON_ATTR, showButton ? "open" : "closed");
    html.setAttribute(BIB_BANNER_ATTR, showBanner ? "on" : "off");
    html.setAttribute(ON_SITE_ATTR, onSite ? "on" : "off");
  }, [showButton, showBanner, onSite]);
  return null;
}
