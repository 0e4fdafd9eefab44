/**
 * The map box on /banor. Its size is fixed by CSS, so the pre-rendered page keeps its layout when the map
 * appears. The Leaflet code (map-view.ts) is imported here only after the page is hydrated: it is the map's
 * own chunk, which no other page requests.
 *
 * States: 'waiting' (the pre-rendered box with its note, until the map is drawn) → 'ready' (Leaflet's map
 * fills the box) or 'failed' (a message in the box). Invariants: Leaflet owns the inner element, into which
 * React never renders; a mounted box has at most one Leaflet map, removed when it unmounts; an import that
 * finishes after the box is gone creates nothing; once ready, the map shows what `selected` says.
 * Failure cases: the map's chunk does not load (offline after the page came, or a new deploy replaced it) or
 * Leaflet throws while drawing → 'failed', with the text version of the routes still under the map; map tiles
 * that fail are no failure (the routes draw on the plain background, map-view.ts); a routes file that cannot
 * be read never gets here: the page shows its reason in the same box (CourseMapMessage).
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Courses } from "../../../shared/geo";
import type { CourseMapView } from "./map-view";

type MapState = "waiting" | "ready" | "failed";

export function CourseMap({ courses, selected }: { courses: Courses; selected: string | null }) {
  const element = useRef<HTMLDivElement>(null);
  const view = useRef<CourseMapView | null>(null);
  const [state, setState] = useState<MapState>("waiting");

  useEffect(() => {
    let gone = false;
    import("./map-view")
      // Leaflet's evaluation and the drawing in tasks of their own: a slow phone never gets one long task of both.
      .then((module) => new Promise<typeof module>((resolve) => setTimeout(() => resolve(module), 0)))
      .then(({ createCourseMap }) => {
        if (gone || !element.current) return;
        view.current = createCourseMap(element.current, courses);
        setState("ready");
      })
      .catch(() => {
        if (!gone) setState("failed");
      });
    return () => {
      gone = true;
      view.current?.destroy();
      view.current = null;
    };
  }, [courses]);

  useEffect(() => {
    if (state !== "ready") return;
    try {
      view.current?.show(selected);
    } catch {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- Leaflet is an external system: a map that failed to draw shows the fallback.
      setState("failed");
    }
  }, [state, selected]);

  return (
    <div className="course-map-box" data-state={state}>
      <div ref={element} className="course-map" role="region" aria-label="Karta över banorna" />
      {state === "waiting" && (
        <CourseMapNote>Kartan laddas … Banorna beskrivs också i text under kartan.</CourseMapNote>
      )}
      {state === "failed" && (
        <CourseMapNote alert>
          Kartan kunde inte laddas. Ladda om sidan för att försöka igen. Banorna beskrivs i text under kartan.
        </CourseMapNote>
      )}
    </div>
  );
}

function CourseMapNote({ alert = false, children }: { alert?: boolean; children: ReactNode }) {
  return (
    <p
      className={alert ? "course-map-note course-map-note-error" : "course-map-note"}
      role={alert ? "alert" : undefined}
    >
      {children}
    </p>
  );
}

/** The box with a message instead of a map: the routes file could not be read. */
export function CourseMapMessage({ children }: { children: ReactNode }) {
  return (
    <div className="course-map-box" data-state="failed">
      <CourseMapNote alert>{children}</CourseMapNote>
    </div>
  );
}
