/**
 * /admin/analytics (admin spec §2 "Analytics"): a header with a refresh button, summary cards, one card per season
 * compared with the season before, one card per distance, the monthly registration and revenue tables, and two
 * charts. Errors (spec §8) stand in an alert the organiser can close; a later failure opens it again. What the
 * figures count is written in src/shared/analytics.ts. A lazy chunk inside the admin shell; the charts (chart.js)
 * are a further lazy chunk of their own.
 */
import { lazy, Suspense, useRef, useState, type ReactNode } from "react";
import {
  paymentRateLevel,
  type AnalyticsSummary,
  type DistanceAnalysis,
  type RegistrationAnalytics,
  type YearComparison,
} from "../../../../shared/analytics";
import { DISTANCES_DESC, distanceLabel } from "../../../../shared/distances";
import { formatSwedishDateTime } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { CloseIcon } from "../../../components/ui/icons";
import { useDocumentTitle } from "../../../lib/use-document-title";
import {
  formatAge,
  formatCount,
  formatGrowth,
  formatPercent,
  formatSek,
  monthName,
  usedMonths,
} from "./analytics-format";
import { useRegistrationAnalytics } from "./api/get-registration-analytics";
import "./analytics.css";

const AnalyticsCharts = lazy(() => import("./analytics-charts"));

export default function AnalyticsPage() {
  useDocumentTitle("Analytics");
  const analytics = useRegistrationAnalytics();
  const refreshButton = useRef<HTMLButtonElement>(null);
  // The failure the organiser closed; a newer one (another refresh that failed) shows again.
  const [closedError, setClosedError] = useState<number | null>(null);
  const showError = analytics.isError && analytics.errorUpdatedAt !== closedError;

  return (
    <section className="page analytics" aria-labelledby="analytics-title">
      <header className="analytics-header">
        <div>
          <h2 id="analytics-title">Analytics</h2>
          <p className="muted">
            Anmälningar och intäkter för alla säsonger.
            {analytics.data && ` Uppdaterad ${formatSwedishDateTime(analytics.data.generatedAt)}.`}
          </p>
        </div>
        <Button ref={refreshButton} loading={analytics.isFetching} onClick={() => void analytics.refetch()}>
          Uppdatera
        </Button>
      </header>

      {showError && (
        <div className="alert alert-error analytics-alert" role="alert">
          <p>{analytics.error?.message}</p>
          <button
            type="button"
            className="analytics-alert-close"
            aria-label="Stäng felmeddelandet"
            onClick={() => {
              setClosedError(analytics.errorUpdatedAt);
              refreshButton.current?.focus();
            }}
          >
            <CloseIcon size={20} />
          </button>
        </div>
      )}
      {analytics.isPending && !analytics.isError && (
        <p className="muted" role="status">
          Hämtar statistik …
        </p>
      )}
      {analytics.data && <AnalyticsContent data={analytics.data} />}
    </section>
  );
}

function AnalyticsContent({ data }: { data: RegistrationAnalytics }) {
  if (data.yearComparison.length === 0) {
    return <p>Det finns inga anmälningar ännu.</p>;
  }
  const newestFirst = [...data.yearComparison].reverse();
  return (
    <>
      <SummaryCards summary={data.summary} />

      <section className="analytics-section" aria-labelledby="analytics-years">
        <h3 id="analytics-years">Säsong för säsong</h3>
        <ul className="analytics-cards">
          {newestFirst.map((y) => (
            <YearCard key={y.year} year={y} />
          ))}
        </ul>
      </section>

      <section className="analytics-section" aria-labelledby="analytics-distances">
        <h3 id="analytics-distances">Distanser, alla säsonger</h3>
        <ul className="analytics-cards">
          {DISTANCES_DESC.map((d) => (
            <DistanceCard key={d} figures={data.distanceAnalysis[d]} />
          ))}
        </ul>
      </section>

      <section className="analytics-section" aria-labelledby="analytics-charts">
        <h3 id="analytics-charts">Diagram</h3>
        <Suspense
          fallback={
            <p className="muted analytics-charts-loading" role="status">
              Laddar diagram …
            </p>
          }
        >
          <AnalyticsCharts years={data.yearComparison} now={data.generatedAt} />
        </Suspense>
      </section>

      <section className="analytics-section" aria-labelledby="analytics-months">
        <h3 id="analytics-months">Per månad</h3>
        <MonthTable
          caption="Anmälningar per månad"
          years={newestFirst}
          cell={(m) => formatCount(m.registrations)}
          total={(y) => formatCount(y.totalRegistrations)}
        />
        <MonthTable
          caption="Intäkter per månad"
          years={newestFirst}
          cell={(m) => formatSek(m.revenue)}
          total={(y) => formatSek(y.totalAmount)}
        />
      </section>
    </>
  );
}

function RateBadge({ rate }: { rate: number }) {
  return <span className={`analytics-rate rate-${paymentRateLevel(rate)}`}>{formatPercent(rate)}</span>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="analytics-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function SummaryCards({ summary }: { summary: AnalyticsSummary }) {
  return (
    <section className="analytics-section" aria-labelledby="analytics-summary">
      <h3 id="analytics-summary">Sammanfattning</h3>
      <dl className="analytics-summary">
        <Fact label="Anmälningar">{formatCount(summary.totalRegistrations)}</Fact>
        <Fact label="Betalda anmälningar">{formatCount(summary.paidRegistrations)}</Fact>
        <Fact label="Deltagare">{formatCount(summary.totalParticipants)}</Fact>
        <Fact label="Intäkter">{formatSek(summary.totalRevenue)}</Fact>
        <Fact label="Betalningsgrad">
          <RateBadge rate={summary.paymentRate} />
        </Fact>
        <Fact label="Säsonger">{formatCount(summary.yearsActive)}</Fact>
      </dl>
      {summary.totalRefunded > 0 && (
        <p className="muted analytics-note">Återbetalt {formatSek(summary.totalRefunded)}, redan avdraget.</p>
      )}
    </section>
  );
}

function Growth({ percent, previous }: { percent: number | null; previous: number | undefined }) {
  const text = formatGrowth(percent);
  if (text === null || previous === undefined) return null;
  const direction = percent! > 0 ? "up" : percent! < 0 ? "down" : "flat";
  return (
    <span className={`analytics-growth growth-${direction}`}>
      {text} mot {previous}
    </span>
  );
}

function YearCard({ year: y }: { year: YearComparison }) {
  const previous = y.previousYear?.year;
  return (
    <li className="analytics-card">
      <h4>{y.year}</h4>
      <dl className="analytics-facts">
        <Fact label="Anmälningar">
          {formatCount(y.totalRegistrations)} <Growth percent={y.registrationGrowth} previous={previous} />
        </Fact>
        <Fact label="Deltagare">{formatCount(y.totalParticipants)}</Fact>
        <Fact label="Intäkter">
          {formatSek(y.totalAmount)} <Growth percent={y.revenueGrowth} previous={previous} />
        </Fact>
        <Fact label="Betalda">
          {formatCount(y.paidRegistrations)} av {formatCount(y.totalRegistrations)} <RateBadge rate={y.paymentRate} />
        </Fact>
        <Fact label="Per distans">
          {DISTANCES_DESC.map((d) => `${distanceLabel(d)} ${formatCount(y.distanceBreakdown[d])}`).join(" · ")}
        </Fact>
      </dl>
    </li>
  );
}

function DistanceCard({ figures: f }: { figures: DistanceAnalysis }) {
  return (
    <li className="analytics-card">
      <h4>{distanceLabel(f.distance)}</h4>
      <dl className="analytics-facts">
        <Fact label="Löpare">{formatCount(f.count)}</Fact>
        <Fact label="Med klubb eller företag">
          {formatCount(f.companyCount)} ({formatCount(f.distinctCompanies)} olika)
        </Fact>
        <Fact label="Ålder, snitt">{formatAge(f.avgAge)}</Fact>
        <Fact label="Ålder, yngst–äldst">{f.minAge === null ? "–" : `${f.minAge}–${f.maxAge}`}</Fact>
      </dl>
    </li>
  );
}

type Month = YearComparison["monthlyBreakdown"][number];

/**
 * Months down, seasons across (newest first, so a phone shows this year without scrolling sideways); the table
 * scrolls inside its own box. Only the months from the first to the last with any registration or payment (their
 * sum is still the season's total: the months left out are empty).
 */
function MonthTable({
  caption,
  years,
  cell,
  total,
}: {
  caption: string;
  years: YearComparison[];
  cell: (m: Month) => string;
  total: (y: YearComparison) => string;
}) {
  const months = usedMonths(years);
  return (
    <div className="table-scroll analytics-table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="table data-table analytics-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Månad</th>
            {years.map((y) => (
              <th key={y.year} scope="col" className="num">
                {y.year}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m}>
              <th scope="row">{monthName(m)}</th>
              {years.map((y) => (
                <td key={y.year} className="num">
                  {cell(y.monthlyBreakdown[m - 1]!)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Totalt</th>
            {years.map((y) => (
              <td key={y.year} className="num">
                {total(y)}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
