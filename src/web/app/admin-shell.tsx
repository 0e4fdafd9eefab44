/**
 * The admin area's frame: 'Admin Panel', tabs (ui/nav-tabs.tsx: each opens a screen of its own), and a side drawer
 * with every admin screen. A lazy chunk, so visitors never download it. Signed-out visitors and non-admins go to /admin/login. The
 * tabs and the drawer list only the screens the admin's role may use (admin-screens.ts); another screen opened by its
 * address shows 'Det här får bara arrangörer göra.' in its place, and none of its calls are made.
 * It holds the race-day tap queues, so presses not yet sent go out from whichever admin screen is open.
 */
import { Suspense, useEffect, useId, useRef, useState } from "react";
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { PageLoading } from "../components/layout/page-loading";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent } from "../components/ui/dialog";
import { MenuIcon } from "../components/ui/icons";
import { NavTabs } from "../components/ui/nav-tabs";
import { useConfig } from "../lib/config/get-config";
import { TapQueueProvider, UnsentTapsNote } from "../features/race-day/tap-queue-provider";
import { mayAct, ORGANISERS_ONLY } from "../../shared/admin-roles";
import { adminStartPath, screenForPath, screensFor } from "../features/admin/admin-screens";

export default function AdminShell() {
  const config = useConfig();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const tabList = useRef<HTMLDivElement>(null);
  const ids = useId();
  const panelId = `${ids}-panel`;
  const tabId = (path: string) => `${ids}-tab-${path}`;
  const isAdmin = config.data?.isAdmin === true;
  // A server from before the roles sends none; its admins could do everything.
  const role = config.data?.adminRole ?? "organiser";
  const screens = screensFor(role);
  const tabs = screens.filter((s) => s.tab);
  const screen = screenForPath(pathname);
  const activePath = tabs.find((t) => t.path === screenForPath(pathname)?.path)?.path;
  // On a phone the tabs scroll sideways (theme.css `.tabs-list`): the open screen's tab is brought into the strip's view,
  // also when the screen was opened from the drawer or a link. Only the strip scrolls, never the page. Measured by
  // an IntersectionObserver, which reports after the browser's own layout of the new screen: reading the tab's
  // offsets here made the browser lay out the whole new screen at once, before its first paint (on the race screen
  // 60 tiles, about 100 ms of a slowed phone: bench/race-screen-load.mjs), and again when it painted.
  useEffect(() => {
    const list = tabList.current;
    const tab = list?.querySelector<HTMLElement>('[data-state="active"]');
    if (!list || !tab) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        observer.disconnect();
        const strip = entry?.rootBounds;
        if (!entry || !strip || entry.intersectionRatio >= 1) return;
        const box = entry.boundingClientRect;
        list.scrollBy({ left: box.left - strip.left - (strip.width - box.width) / 2 });
      },
      { root: list, threshold: 1 },
    );
    observer.observe(tab);
    return () => observer.disconnect();
  }, [activePath, isAdmin]);
  // The admin area's service worker, so the race screens open with no connection (README, "Offline").
  useEffect(() => {
    if (isAdmin) void import("../lib/register-service-worker").then((m) => m.registerServiceWorker("admin"));
  }, [isAdmin]);

  if (!config.data) {
    if (config.isError) {
      return (
        <div className="page">
          <p className="alert alert-error" role="alert">
            {config.error.message}
          </p>
          <Button onClick={() => void config.refetch()}>Försök igen</Button>
        </div>
      );
    }
    return <PageLoading />;
  }
  if (!config.data.isAdmin) return <Navigate to="/admin/login" replace />;

  const activeTab = tabs.find((t) => t.path === activePath);
  const outlet =
    screen && !mayAct(role, screen.role) ? (
      <section className="page">
        <h2>{screen.label}</h2>
        <p className="alert alert-error" role="alert">
          {ORGANISERS_ONLY}
        </p>
        <Link to={adminStartPath(role)}>Till startsidan</Link>
      </section>
    ) : (
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    );

  return (
    <TapQueueProvider>
      <div className="admin">
        <header className="admin-bar">
          <button
            type="button"
            className="menu-button admin-menu-button"
            aria-label="Alla adminsidor"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <MenuIcon />
          </button>
          <h1 className="admin-title">Admin Panel</h1>
          <nav className="admin-bar-links" aria-label="Konto">
            <Link to="/">Till sajten</Link>
            <Link to="/logout">Logga ut</Link>
          </nav>
        </header>
        <UnsentTapsNote />

        <NavTabs
          ref={tabList}
          tabs={tabs}
          activePath={activeTab?.path}
          onOpen={(path) => void navigate(path)}
          label="Adminsidor"
          className="admin-tabs"
          tabId={tabId}
          panelId={panelId}
        />
        {activeTab ? (
          <div
            role="tabpanel"
            id={panelId}
            aria-labelledby={tabId(activeTab.path)}
            data-state="active"
            data-orientation="horizontal"
            tabIndex={0}
            className="tabs-content admin-main"
          >
            {outlet}
          </div>
        ) : (
          <div className="admin-main">{outlet}</div>
        )}

        <Dialog open={drawerOpen} onOpenChange={setDrawerOpen}>
          <DialogContent title="Admin Panel" side="left" closeLabel="Stäng menyn" className="nav-drawer">
            <nav aria-label="Alla adminsidor">
              <ul className="nav-links">
                {screens.map((s) => (
                  <li key={s.path}>
                    <NavLink to={s.path} className="nav-link" onClick={() => setDrawerOpen(false)}>
                      {s.label}
                    </NavLink>
                  </li>
                ))}
                <li className="nav-links-separator">
                  <NavLink to="/" end className="nav-link" onClick={() => setDrawerOpen(false)}>
                    Till sajten
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/logout" className="nav-link" onClick={() => setDrawerOpen(false)}>
                    Logga ut
                  </NavLink>
                </li>
              </ul>
            </nav>
          </DialogContent>
        </Dialog>
      </div>
    </TapQueueProvider>
  );
}
