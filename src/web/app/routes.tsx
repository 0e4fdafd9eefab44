/**
 * Every route of both specs, in one table. The public entry holds only what a visitor on '/' needs: the layout and
 * the landing and terms pages. Every other page is a lazy chunk (`const X = lazy(() => import(...))`, or
 * `lazyScreen(...)` for the screens a deep link loads ahead: preloadScreens below), so admin screens, timing, the
 * map and the carousel stay out of the entry.
 */
import type { QueryClient } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import { configQueryOptions } from "../lib/config/get-config";
import { LandingPage } from "../features/landing/landing-page";
import { LogoutPage } from "../features/session/logout-page";
import { TermsPage } from "../features/terms/terms-page";
import { lazyScreen } from "./lazy-screen";
import { NotFoundPage } from "./not-found-page";
import { PageLoading } from "../components/layout/page-loading";
import { PublicLayout } from "./public-layout";

const AdminShell = lazyScreen(() => import("./admin-shell"));
const AdminLoginPage = lazy(() => import("../features/admin/login/admin-login-page"));
const AdminStart = lazy(() => import("../features/admin/admin-start"));
const AdminsPage = lazy(() => import("../features/admin/admins/admins-page"));
const TimingPage = lazy(() => import("../features/timing/timing-page"));
const RegistrationPage = lazy(() => import("../features/registration/registration-page"));
const ReceiptPage = lazy(() => import("../features/registration/receipt-page"));
const CampaignsPage = lazy(() => import("../features/admin/campaigns/campaigns-page"));
const EpassiPage = lazy(() => import("../features/admin/epassi/epassi-page"));
const RegistrationsPage = lazy(() => import("../features/admin/registrations/registrations-page"));
const BoxOfficePage = lazy(() => import("../features/admin/box-office/box-office-page"));
const CheckInPage = lazy(() => import("../features/admin/check-in/check-in-page"));
const RaceHubPage = lazy(() => import("../features/race-day/race-hub-page"));
const RacePage = lazyScreen(() => import("../features/race-day/race-page"));
const RaceListPage = lazy(() => import("../features/race-day/race-list-page"));
const RunnerListPage = lazy(() => import("../features/race-day/runner-list-page"));
const StartListsPage = lazy(() => import("../features/start-lists/start-lists-page"));
const ResultsPage = lazy(() => import("../features/results/results-page"));
const ResultsYearPage = lazy(() => import("../features/results/results-year-page"));
const GalleryPage = lazy(() => import("../features/gallery/gallery-page"));
const GalleryYearPage = lazy(() => import("../features/gallery/gallery-year-page"));
const CoursesPage = lazy(() => import("../features/courses/courses-page"));
const ResultsImportPage = lazy(() => import("../features/admin/results-import/results-import-page"));
const PreviousRunnersEmailPage = lazy(() => import("../features/admin/mass-email/previous-runners-page"));
const CurrentRunnersEmailPage = lazy(() => import("../features/admin/mass-email/current-runners-page"));
const AnalyticsPage = lazy(() => import("../features/admin/analytics/analytics-page"));
const GoodieBagsPage = lazy(() => import("../features/admin/goodiebags/goodiebags-page"));
const PersonalDataPage = lazy(() => import("../features/admin/personal-data/personal-data-page"));
const HelpPage = lazy(() => import("../features/admin/help/help-page"));
const AdminNotFoundPage = lazy(() => import("../features/admin/admin-not-found-page"));

const RACE_SCREEN = /^\/admin\/race\/([^/]+)\/?$/;

/**
 * The lazy screens a deep link opens on, loaded before the first render (main.tsx) so that no loading fallback
 * comes and goes in front of them (lazy-screen.ts): the admin shell, and on /admin/race/{id} the race screen. Their
 * data is asked for at the same time (the admin start pages have it on its way already), so a screen whose data is
 * in by then draws it in its first render. The promise is the code only: data that is late comes as usual.
 */
export function preloadScreens(pathname: string, queryClient: QueryClient): Promise<unknown> {
  if (!pathname.startsWith("/admin/") || pathname === "/admin/login") return Promise.resolve();
  void queryClient.prefetchQuery(configQueryOptions());
  const raceId = RACE_SCREEN.exec(pathname)?.[1];
  if (raceId === undefined) return AdminShell.preload();
  const race = import("../features/race-day/api/get-race").then(({ raceQueryOptions }) => {
    void queryClient.prefetchQuery(raceQueryOptions(decodeURIComponent(raceId)));
  });
  return Promise.all([AdminShell.preload(), RacePage.preload(), race]);
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<LandingPage />} />
        <Route path="anmalan" element={<RegistrationPage />} />
        <Route path="anmalan/:step" element={<RegistrationPage />} />
        <Route path="kvitto/:id" element={<ReceiptPage />} />
        <Route path="tidtagning" element={<TimingPage />} />
        <Route path="banor" element={<CoursesPage />} />
        <Route path="resultat" element={<ResultsPage />} />
        <Route path="resultat/:year" element={<ResultsYearPage />} />
        <Route path="startlistor" element={<StartListsPage />} />
        <Route path="galleri" element={<GalleryPage />} />
        <Route path="galleri/:id" element={<GalleryYearPage />} />
        <Route path="allmanna-villkor" element={<TermsPage />} />
        <Route path="logout" element={<LogoutPage />} />
        <Route path="admin/login" element={<AdminLoginPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>

      <Route
        element={
          <Suspense fallback={<PageLoading />}>
            <AdminShell />
          </Suspense>
        }
      >
        {/* The spec's /admin → /admin/list-by-race is the organiser's; a volunteer lands on the race list. */}
        <Route path="admin" element={<AdminStart />} />
        <Route path="admin/list-by-race" element={<RegistrationsPage />} />
        <Route path="admin/race" element={<RaceHubPage />} />
        <Route path="admin/race/:id" element={<RacePage />} />
        <Route path="admin/edit-races" element={<RaceListPage />} />
        <Route path="admin/edit-races/:id" element={<RunnerListPage />} />
        <Route path="admin/epassi" element={<EpassiPage />} />
        <Route path="admin/analytics" element={<AnalyticsPage />} />
        <Route path="admin/email-previous-runners" element={<PreviousRunnersEmailPage />} />
        <Route path="admin/email-runners" element={<CurrentRunnersEmailPage />} />
        <Route path="admin/goodiebags" element={<GoodieBagsPage />} />
        <Route path="admin/personuppgifter" element={<PersonalDataPage />} />
        <Route path="admin/kassa" element={<BoxOfficePage />} />
        <Route path="admin/incheckning" element={<CheckInPage />} />
        <Route path="admin/kampanjkoder" element={<CampaignsPage />} />
        <Route path="admin/resultat" element={<ResultsImportPage />} />
        <Route path="admin/hjalp" element={<HelpPage />} />
        <Route path="admin/behorigheter" element={<AdminsPage />} />
        {/* The older admin screen is replaced by this one: old bookmarks land on the registrations. */}
        <Route path="admin-old" element={<Navigate to="/admin/list-by-race" replace />} />
        <Route path="admin/*" element={<AdminNotFoundPage />} />
      </Route>
    </Routes>
  );
}
