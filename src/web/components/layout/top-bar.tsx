import { lazy, Suspense, useState } from "react";
import { Link } from "react-router";
import { SITE_NAME } from "../../lib/site";
import { ButtonLink } from "../ui/button";
import { MenuIcon } from "../ui/icons";
import { LogoMark } from "./logo";
import { NavLinks } from "./nav-links";

const loadDrawer = () => import("./mobile-nav-drawer");
const MobileNavDrawer = lazy(loadDrawer);

/**
 * Logo, navigation and the registration button. The button is always rendered and its box always reserved;
 * whether it shows is decided by <html data-registration-button> (see season-flags.tsx), so its coming and
 * going at the cut-off never moves the bar. Below 700 px the links move into a drawer behind the menu button.
 */
export function TopBar() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerWanted, setDrawerWanted] = useState(false);

  return (
    <header className="top-bar">
      <div className="top-bar-inner">
        <Link to="/" className="logo" aria-label={`${SITE_NAME}, till startsidan`}>
          <LogoMark />
          <span className="logo-text">{SITE_NAME}</span>
        </Link>
        <nav className="top-nav" aria-label="Huvudmeny">
          <NavLinks />
        </nav>
        <ButtonLink to="/anmalan" variant="primary" className="registration-button">
          Anmälan
        </ButtonLink>
        <button
          type="button"
          className="menu-button"
          aria-label="Meny"
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          // Start fetching the drawer's chunk as soon as a finger touches the button.
          onPointerDown={() => void loadDrawer()}
          onClick={() => {
            setDrawerWanted(true);
            setDrawerOpen(true);
          }}
        >
          <MenuIcon />
        </button>
      </div>
      {drawerWanted && (
        <Suspense fallback={null}>
          <MobileNavDrawer open={drawerOpen} onOpenChange={setDrawerOpen} />
        </Suspense>
      )}
    </header>
  );
}
