/**
 * Every route of both specs, in one table. The public entry holds only what a visitor on '/' needs: the layout,
 * the landing and terms pages and the small placeholders. Admin (shell, sign-in, every screen) and timing are
 * lazy chunks. A screen of a later issue renders <ComingSoon> until that issue replaces the element here
 * (admin screens: `const X = lazy(() => import(...))`, so they stay out of the entry).
 */
import { lazy, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import { ComingSoon } from "../features/coming-soon";
import { LandingPage } from "../features/landing/landing-page";
import { LogoutPage } from "../features/session/logout-page";
import { TermsPage } from "../features/terms/terms-page";
import { NotFoundPage } from "./not-found-page";
import { PageLoading } from "./page-loading";
import { PublicLayout } from "./public-layout";

const AdminShell = lazy(() => import("../features/admin/admin-shell"));
const AdminLoginPage = lazy(() => import("../features/admin/admin-login-page"));
const TimingPage = lazy(() => import("../features/timing/timing-page"));
const RegistrationPage = lazy(() => import("../features/registration/registration-page"));
const ReceiptPage = lazy(() => import("../features/receipt/receipt-page"));
const CampaignsPage = lazy(() => import("../features/admin/campaigns/campaigns-page"));
const RaceHubPage = lazy(() => import("../features/race-day/race-hub-page"));
const RacePage = lazy(() => import("../features/race-day/race-page"));
const RaceListPage = lazy(() => import("../features/race-day/race-list-page"));
const RunnerListPage = lazy(() => import("../features/race-day/runner-list-page"));
const StartListsPage = lazy(() => import("../features/start-lists/start-lists-page"));
const ResultsPage = lazy(() => import("../features/results/results-page"));
const ResultsYearPage = lazy(() => import("../features/results/results-year-page"));
const ResultsImportPage = lazy(() => import("../features/admin/results-import/results-import-page"));
const AdminNotFoundPage = lazy(() => import("../features/admin/admin-not-found-page"));

const admin = (title: string) => <ComingSoon title={title} level={2} />;

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<LandingPage />} />
        <Route path="anmalan" element={<RegistrationPage />} />
        <Route path="anmalan/:step" element={<RegistrationPage />} />
        <Route path="kvitto/:id" element={<ReceiptPage />} />
        <Route path="tidtagning" element={<TimingPage />} />
        <Route path="banor" element={<ComingSoon title="Banor" />} />
        <Route path="resultat" element={<ResultsPage />} />
        <Route path="resultat/:year" element={<ResultsYearPage />} />
        <Route path="startlistor" element={<StartListsPage />} />
        <Route path="galleri" element={<ComingSoon title="Galleri" />} />
        <Route path="galleri/:id" element={<ComingSoon title="Galleri" />} />
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
        <Route path="admin" element={<Navigate to="/admin/list-by-race" replace />} />
        <Route path="admin/list-by-race" element={admin("Anmälningar")} />
        <Route path="admin/race" element={<RaceHubPage />} />
        <Route path="admin/race/:id" element={<RacePage />} />
        <Route path="admin/edit-races" element={<RaceListPage />} />
        <Route path="admin/edit-races/:id" element={<RunnerListPage />} />
        <Route path="admin/epassi" element={admin("Epassi")} />
        <Route path="admin/analytics" element={admin("Analytics")} />
        <Route path="admin/email-previous-runners" element={admin("Maila tidigare löpare")} />
        <Route path="admin/email-runners" element={admin("Maila registrerade löpare")} />
        <Route path="admin/goodiebags" element={admin("Goodiebags")} />
        <Route path="admin/kassa" element={admin("Biljettkassan")} />
        <Route path="admin/kampanjkoder" element={<CampaignsPage />} />
        <Route path="admin/resultat" element={<ResultsImportPage />} />
        <Route path="admin-old" element={admin("Äldre admin")} />
        <Route path="admin/*" element={<AdminNotFoundPage />} />
      </Route>
    </Routes>
  );
}
