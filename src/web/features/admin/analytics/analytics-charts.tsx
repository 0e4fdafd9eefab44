/**
 * The analytics page's two charts, drawn with chart.js. Only the pieces these charts use are registered (tree
 * shaking keeps the rest out), and this module is its own lazy chunk: chart.js is downloaded on /admin/analytics
 * only, after the figures are already on screen. The same numbers stand in the tables beside the charts, so a
 * screen reader loses nothing (each canvas is an image with a label saying what it shows).
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from "chart.js";
import { useEffect, useMemo, useRef } from "react";
import type { YearComparison } from "../../../../shared/analytics";
import { stockholmParts } from "../../../../shared/stockholm";
import { formatCount, formatSek, shortMonth, usedMonths } from "./analytics-format";

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** One colour per season, newest the strongest; distinguishable and ≥ 3:1 against white. */
const PALETTE = ["#283593", "#b07800", "#a4161a", "#1b5e20", "#6a1b9a", "#00695c", "#4e342e", "#37474f"];

function colour(index: number, count: number): string {
  // The newest season takes the first colour, so this year always looks the same whatever the history.
  return PALETTE[(count - 1 - index) % PALETTE.length]!;
}

function ChartCanvas({ config, label }: { config: ChartConfiguration; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [config]);
  return (
    <div className="analytics-chart-box">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

const COMMON = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  locale: "sv-SE",
  interaction: { mode: "index", intersect: false },
  plugins: { legend: { position: "bottom" } },
} as const;

/**
 * The last month of a season's line: the current month for this year's season, so its line stops today instead of
 * running flat into months that have not come yet.
 */
function lastMonth(season: number, now: number): number {
  const today = stockholmParts(now);
  if (season < today.year) return 12;
  return season === today.year ? today.month : 0;
}

export default function AnalyticsCharts({ years, now }: { years: YearComparison[]; now: number }) {
  const months = useMemo(() => usedMonths(years), [years]);
  const labels = useMemo(() => months.map(shortMonth), [months]);

  const cumulative = useMemo((): ChartConfiguration<"line"> => {
    return {
      type: "line",
      data: {
        labels,
        datasets: years.map((y, i) => {
          const until = lastMonth(y.year, now);
          let total = 0;
          const running = y.monthlyBreakdown.map((m) => (total += m.registrations));
          return {
            label: String(y.year),
            data: months.map((m) => (m <= until ? running[m - 1]! : null)),
            borderColor: colour(i, years.length),
            backgroundColor: colour(i, years.length),
            borderWidth: i === years.length - 1 ? 3 : 2,
            pointRadius: 2,
            // Monotone: a running total never seems to dip or overshoot between two months.
            cubicInterpolationMode: "monotone" as const,
          };
        }),
      },
      options: {
        ...COMMON,
        scales: { y: { beginAtZero: true, ticks: { precision: 0, callback: (v) => formatCount(Number(v)) } } },
      },
    };
  }, [years, months, labels, now]);

  const revenue = useMemo((): ChartConfiguration<"bar"> => {
    return {
      type: "bar",
      data: {
        labels,
        datasets: years.map((y, i) => ({
          label: String(y.year),
          data: months.map((m) => y.monthlyBreakdown[m - 1]!.revenue),
          backgroundColor: colour(i, years.length),
        })),
      },
      options: {
        ...COMMON,
        scales: { y: { beginAtZero: true, ticks: { callback: (v) => formatSek(Number(v)) } } },
        plugins: {
          ...COMMON.plugins,
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${formatSek(Number(item.raw))}` } },
        },
      },
    };
  }, [years, months, labels]);

  return (
    <div className="analytics-charts">
      <figure className="analytics-chart">
        <figcaption>Anmälningar hittills under säsongen, månad för månad</figcaption>
        <ChartCanvas
          config={cumulative as ChartConfiguration}
          label="Linjediagram: antal anmälningar sammanlagt per månad, en linje per säsong"
        />
      </figure>
      <figure className="analytics-chart">
        <figcaption>Intäkter per månad</figcaption>
        <ChartCanvas
          config={revenue as ChartConfiguration}
          label="Stapeldiagram: intäkter i kronor per månad, en stapel per säsong"
        />
      </figure>
    </div>
  );
}
