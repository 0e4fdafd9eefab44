import { Suspense, useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { BibPickupBanner } from "../components/layout/bib-pickup-banner";
import { SiteFooter } from "../components/layout/site-footer";
import { TopBar } from "../components/layout/top-bar";
import { PageLoading } from "../components/layout/page-loading";

/** Every public page: top bar, the page, footer, and the (usually hidden) bib-pickup banner. */
export function PublicLayout() {
  useScrollToTopOnNavigate();
  return (
    <div className="site">
      <a className="skip-link" href="#main">
        Hoppa till innehållet
      </a>
      <TopBar />
      <main id="main" className="site-main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <BibPickupBanner />
    </div>
  );
}

/** The declarative router keeps the scroll position between pages; a new page should start at its top. */
function useScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}
