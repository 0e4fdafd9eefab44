/**
 * /banor (spec, public site: "Courses (map)"; admin area §3 for the route colours): the four routes on a map
 * with a legend giving each route's length, computed from the routes file (course-data.ts). Pre-rendered at
 * build with everything but the map itself: heading, text, the legend with lengths, the map's box at its final
 * size, and the routes in text (for screen readers, and for when the map cannot load). The map is drawn into the
 * box once the page has hydrated (course-map.tsx), so it never holds up the first paint.
 *
 * One route can be shown alone (2.8K and 5.6K are both red): the legend's entries are toggle buttons, and the
 * choice is kept in the address (`/banor?bana=5.6K`) so it can be shared. An unknown `bana` says so on the page
 * and shows every route. The address is read only after hydration, since the pre-rendered HTML is the same for
 * every query string.
 */
import { useSyncExternalStore } from "react";
import { useSearchParams } from "react-router";
import {
  CASING_COLOR,
  formatKm,
  formatMeters,
  routeKey,
  routeStyle,
  type CourseRoute,
  type Courses,
} from "../../../shared/geo";
import { useDocumentTitle } from "../../lib/use-document-title";
import { COURSES } from "./course-data";
import { CourseMap, CourseMapMessage } from "./course-map";

// The page's styles travel inside the page (a <style> in its HTML): a lazy chunk's stylesheet would only arrive
// after the pre-rendered HTML has painted, and the page would jump.
import coursesCss from "./courses.css?inline";

const BANA = "bana";

const noSubscription = () => () => {};

/** False while React hydrates the pre-rendered HTML (and at build), true afterwards. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export default function CoursesPage() {
  useDocumentTitle("Banor");
  return (
    <section className="page courses-page">
      <style>{coursesCss}</style>
      <h1>Banor</h1>
      <p className="page-lead">
        Alla fyra banorna går på asfalt genom byn, med start och mål vid skolans matsal. Välj en bana för att se den
        ensam på kartan. Under kartan beskrivs banorna också i text.
      </p>
      {COURSES.ok ? (
        <CourseView courses={COURSES.courses} />
      ) : (
        <CourseMapMessage>Kartan kan inte visas: {COURSES.error}</CourseMapMessage>
      )}
    </section>
  );
}

const routeLabel = (route: CourseRoute) => `${route.name} – ${formatKm(route.lengthMeters)}`;

/** '0.8K, 1.6K, 2.8K eller 5.6K'. */
function namesOr(routes: readonly CourseRoute[]): string {
  const names = routes.map((r) => r.name);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} eller ${names.at(-1)}`;
}

function CourseView({ courses }: { courses: Courses }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const hydrated = useHydrated();
  const requested = hydrated ? (searchParams.get(BANA)?.trim() ?? "") : "";
  const found = requested ? courses.routes.find((r) => routeKey(r.name) === routeKey(requested)) : undefined;
  const selected = found ?? null;

  const choose = (route: CourseRoute | null) => {
    setSearchParams(route ? { [BANA]: route.name } : {}, { replace: true, preventScrollReset: true });
  };

  let status = "Alla banor visas.";
  if (found) status = `Visar ${routeLabel(found)}.`;
  else if (requested) {
    status = `Det finns ingen bana som heter ”${requested}”. Alla banor visas; välj ${namesOr(courses.routes)}.`;
  }

  return (
    <>
      <div className="course-layout">
        <div className="course-legend">
          <h2 id="teckenforklaring" className="course-legend-title">
            Teckenförklaring
          </h2>
          <div className="course-toggles" role="group" aria-labelledby="teckenforklaring">
            <button
              type="button"
              className="course-toggle"
              aria-pressed={selected === null}
              onClick={() => choose(null)}
            >
              Alla banor
            </button>
            {courses.routes.map((route) => (
              <button
                key={route.name}
                type="button"
                className="course-toggle"
                aria-pressed={selected === route}
                onClick={() => choose(selected === route ? null : route)}
              >
                <RouteSwatch name={route.name} />
                <span>{routeLabel(route)}</span>
              </button>
            ))}
          </div>
          <p className="course-start-note">
            <span className="course-start-dot" aria-hidden="true" /> {courses.startFinish.label}
          </p>
          <p className={found || !requested ? "course-status" : "course-status course-status-error"} role="status">
            {status}
          </p>
        </div>
        <CourseMap courses={courses} selected={selected?.name ?? null} />
      </div>

      <section className="course-text" aria-labelledby="banorna-i-text">
        <h2 id="banorna-i-text">Banorna i text</h2>
        <ul className="course-list">
          {courses.routes.map((route) => (
            <li key={route.name}>
              <h3>{routeLabel(route)}</h3>
              <p>
                {formatMeters(route.lengthMeters)}, {routeStyle(route.name).colorName} linje på kartan.{" "}
                {route.description}
              </p>
            </li>
          ))}
        </ul>
        <p>{courses.startFinish.label}.</p>
      </section>
    </>
  );
}

/** A short piece of the route's line, drawn as on the map (routeStyle, src/shared/geo.ts). */
function RouteSwatch({ name }: { name: string }) {
  const style = routeStyle(name);
  return (
    <svg className="course-swatch" width="32" height="12" viewBox="0 0 32 12" aria-hidden="true">
      <line
        x1="3"
        y1="6"
        x2="29"
        y2="6"
        stroke={CASING_COLOR}
        strokeOpacity="0.55"
        strokeWidth="8"
        strokeLinecap="round"
      />
      <line
        x1="3"
        y1="6"
        x2="29"
        y2="6"
        stroke={style.color}
        strokeWidth="5"
        strokeDasharray={style.dashArray}
        strokeLinecap={style.dashArray ? "butt" : "round"}
      />
    </svg>
  );
}
