/**
 * The course map itself, drawn with Leaflet. This module is the lazy chunk: course-map.tsx imports it after the
 * page is on screen, so Leaflet and its CSS are downloaded on /banor only, and never before the page's text
 * has painted (the largest paint stays the heading and text).
 *
 * The routes are SVG lines on the map's own plain background (a light land colour, courses.css), so they draw
 * with no map tiles at all. Tiles are added only when wrangler.toml's MAP_TILE_URL names a tile service for the
 * environment built (vite.config.ts puts it here as VITE_MAP_TILE_URL; docs/public-site.md, "Course map"): development and the
 * tests leave it empty, so nothing here reaches the internet. A tile that fails to load
 * leaves its square blank; Leaflet carries on and the routes stay drawn.
 */
import * as L from "leaflet/dist/leaflet-src.esm.js";
import "leaflet/dist/leaflet.css";
import { CASING_COLOR, routeKey, routeStyle, type Courses } from "../../../shared/geo";
import { startLabelOffset } from "./start-label";

/** A tile URL template ('https://tile.openstreetmap.org/{z}/{x}/{y}.png'), or empty for no tiles. */
const TILE_URL: string = import.meta.env.VITE_MAP_TILE_URL ?? "";
const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>-bidragsgivare';
/** Who must be credited for the tiles (HTML); OpenStreetMap's own tiles get their required credit by default. */
const TILE_ATTRIBUTION: string =
  import.meta.env.VITE_MAP_TILE_ATTRIBUTION || (/openstreetmap\.org/.test(TILE_URL) ? OSM_ATTRIBUTION : "");

const LINE_WEIGHT = 5;
/** The start and finish dot's size (courses.css `.course-start-dot`). */
const DOT_PX = 18;
const CASING_WEIGHT = LINE_WEIGHT + 3;
/** Room around the fitted routes, more at the top left where the zoom buttons are. */
const FIT_PADDING = { paddingTopLeft: L.point(52, 36), paddingBottomRight: L.point(28, 28) };

export interface CourseMapView {
  /** Shows one route (by name) alone, or every route (null), and fits the map to what is shown. */
  show(name: string | null): void;
  destroy(): void;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A CSS-class-safe form of a route name: '5.6K' → '5-6k'. */
export function routeSlug(name: string): string {
  return (
    routeKey(name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "bana"
  );
}

export function createCourseMap(element: HTMLElement, courses: Courses): CourseMapView {
  const map = L.map(element, {
    minZoom: 10,
    maxZoom: 19,
    zoomSnap: 0.25,
    // The page scrolls past the map: the wheel zooms only after a click on the map, never by passing over it.
    scrollWheelZoom: false,
    attributionControl: false,
    zoomControl: false,
  });
  L.control.zoom({ position: "topleft", zoomInTitle: "Zooma in", zoomOutTitle: "Zooma ut" }).addTo(map);
  L.control.scale({ imperial: false, position: "bottomleft" }).addTo(map);
  map.on("click", () => map.scrollWheelZoom.enable());
  map.on("blur", () => map.scrollWheelZoom.disable());

  const attribution = L.control.attribution({ prefix: '<a href="https://leafletjs.com">Leaflet</a>' }).addTo(map);
  if (TILE_URL) {
    // Failed tiles are left blank (Leaflet's default); the routes are drawn on the background beneath them.
    L.tileLayer(TILE_URL, { maxZoom: 19, attribution: TILE_ATTRIBUTION }).addTo(map);
  } else {
    attribution.remove();
  }

  // Longest first, so shorter routes lie on top where they share a street.
  const layers = [...courses.routes].reverse().map((route) => {
    const style = routeStyle(route.name);
    const slug = routeSlug(route.name);
    const latLngs = route.points.map((p) => L.latLng(p.lat, p.lng));
    const casing = L.polyline(latLngs, {
      color: CASING_COLOR,
      weight: CASING_WEIGHT,
      opacity: 0.55,
      interactive: false,
      className: `course-casing course-casing-${slug}`,
    });
    const line = L.polyline(latLngs, {
      color: style.color,
      weight: LINE_WEIGHT,
      opacity: 1,
      dashArray: style.dashArray,
      lineCap: style.dashArray ? "butt" : "round",
      interactive: false,
      className: `course-line course-line-${slug}`,
    });
    return { key: routeKey(route.name), group: L.featureGroup([casing, line]) };
  });
  const { label, position } = courses.startFinish;
  // The icon is the dot alone (its centre on the point); the label is placed beside it by placeStartLabel.
  const start = L.marker([position.lat, position.lng], {
    icon: L.divIcon({
      className: "course-start",
      html: `<span class="course-start-dot"></span><span class="course-start-label">${escapeHtml(label)}</span>`,
      iconSize: [DOT_PX, DOT_PX],
      iconAnchor: [DOT_PX / 2, DOT_PX / 2],
    }),
    interactive: false,
    keyboard: false,
    zIndexOffset: 1000,
  });
  /** Beside the dot on the side where the whole label is inside the map (start-label.ts), after every move. */
  const placeStartLabel = () => {
    const el = start.getElement()?.querySelector<HTMLElement>(".course-start-label");
    if (!el) return;
    const dot = map.latLngToContainerPoint(start.getLatLng());
    const size = map.getSize();
    const offset = startLabelOffset(
      { x: dot.x, y: dot.y },
      { width: size.x, height: size.y },
      { width: el.offsetWidth, height: el.offsetHeight },
    );
    el.style.left = `${DOT_PX / 2 + offset.left}px`;
    el.style.top = `${DOT_PX / 2 + offset.top}px`;
  };
  map.on("moveend zoomend resize", placeStartLabel);

  const fit = (shown: typeof layers, animate: boolean) => {
    const bounds = L.latLngBounds([]);
    for (const { group } of shown) bounds.extend(group.getBounds());
    if (bounds.isValid()) map.fitBounds(bounds, { ...FIT_PADDING, animate });
  };
  const draw = (name: string | null, animate: boolean) => {
    const key = name === null ? null : routeKey(name);
    const shown = layers.filter((l) => key === null || l.key === key);
    // Removed and added again in order, so the longest is still beneath the others.
    for (const l of layers) l.group.remove();
    for (const l of shown) l.group.addTo(map);
    fit(shown, animate);
  };
  fit(layers, false);

  // The routes are drawn in a task after the map's own setup: on a slow phone two short tasks, not one long one.
  let drawn = false;
  let wanted: string | null = null;
  const drawing = setTimeout(() => {
    drawn = true;
    start.addTo(map);
    draw(wanted, false);
    placeStartLabel();
  }, 0);

  return {
    show(name) {
      wanted = name;
      if (drawn) draw(name, true);
    },
    destroy() {
      clearTimeout(drawing);
      map.remove();
    },
  };
}
