/**
 * Lengths on the earth's surface, and the course map's GeoJSON file read into routes (the map on /banor,
 * src/web/features/courses/). A route's length is computed from its coordinates with the haversine formula, so
 * the legend follows the file when the organiser replaces it: nothing else states a length. Each route's colour
 * follows from its name (routeStyle, at the end).
 *
 * The file is a GeoJSON FeatureCollection (what geojson.io saves): each route a LineString with the properties
 * `name` (its legend label, '5.6K') and `description` (a sentence for the text version), and exactly one Point,
 * the start and finish, whose `name` labels it on the map. Coordinates are GeoJSON's [longitude, latitude].
 */

export interface LatLng {
  lat: number;
  lng: number;
}

/** The earth's mean radius in metres (IUGG), the usual sphere for the haversine formula (error ≤ 0.5 %). */
export const EARTH_RADIUS_M = 6_371_008.8;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The great-circle distance between two points, in metres. */
export function haversineMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The length of a line through `points` in order, in metres (0 for fewer than two points). */
export function pathLengthMeters(points: readonly LatLng[]): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += haversineMeters(points[i - 1]!, points[i]!);
  return sum;
}

/** A length as the legend shows it: kilometres with one decimal and a decimal comma ('5,6 km'). */
export function formatKm(meters: number): string {
  return `${(Math.round(meters / 100) / 10).toFixed(1).replace(".", ",")} km`;
}

/** Whole metres with a thin space between thousands, as Swedish writes them ('5 612 m'). */
export function formatMeters(meters: number): string {
  const whole = String(Math.round(meters));
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f")} m`;
}

export interface CourseRoute {
  name: string;
  description: string;
  points: LatLng[];
  lengthMeters: number;
}

export interface StartFinish {
  label: string;
  position: LatLng;
}

export interface Courses {
  /** Shortest first, whatever the file's order (a drawing tool saves features in the order they were drawn). */
  routes: CourseRoute[];
  startFinish: StartFinish;
}

export type CoursesResult = { ok: true; courses: Courses } | { ok: false; error: string };

/** The label used when the start/finish point has no name of its own. */
export const DEFAULT_START_LABEL = "Start och mål";

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** A GeoJSON position [lng, lat] (an altitude after them is allowed and ignored), or null. */
function position(x: unknown): LatLng | null {
  if (!Array.isArray(x) || x.length < 2 || x.length > 3) return null;
  if (!x.every((n) => typeof n === "number" && Number.isFinite(n))) return null;
  const [lng, lat] = x as number[];
  if (lat! < -90 || lat! > 90 || lng! < -180 || lng! > 180) return null;
  return { lat: lat!, lng: lng! };
}

const text = (x: unknown): string => (typeof x === "string" ? x.trim() : "");

/** The key two route names are compared by: '5.6K', '5,6k' and ' 5.6K ' are the same route. */
export function routeKey(name: string): string {
  return name.trim().replace(",", ".").toUpperCase();
}

/**
 * The routes and the start/finish point of a course map file, or the first thing wrong with it as a Swedish
 * sentence (shown on the page in place of the map). Features are numbered from 1 in the file's order.
 */
export function readCourses(geojson: unknown): CoursesResult {
  const fail = (error: string): CoursesResult => ({ ok: false, error });
  if (!isRecord(geojson) || geojson.type !== "FeatureCollection" || !Array.isArray(geojson.features)) {
    return fail("Banfilen är inte en GeoJSON-samling (FeatureCollection med features).");
  }
  const routes: CourseRoute[] = [];
  const starts: StartFinish[] = [];
  for (const [i, feature] of geojson.features.entries()) {
    const where = `Objekt ${i + 1} i banfilen`;
    if (!isRecord(feature) || feature.type !== "Feature" || !isRecord(feature.geometry)) {
      return fail(`${where} är inte ett GeoJSON-objekt (Feature med geometry).`);
    }
    const properties = isRecord(feature.properties) ? feature.properties : {};
    const { type, coordinates } = feature.geometry;
    if (type === "LineString") {
      const name = text(properties.name);
      if (!name) return fail(`${where} är en linje utan namn (egenskapen name, t.ex. "5.6K").`);
      if (!Array.isArray(coordinates) || coordinates.length < 2) {
        return fail(`Banan ${name} har färre än två punkter.`);
      }
      const points: LatLng[] = [];
      for (const [j, c] of coordinates.entries()) {
        const p = position(c);
        if (!p) return fail(`Banan ${name}: punkt ${j + 1} är inte [longitud, latitud] i grader.`);
        points.push(p);
      }
      if (routes.some((r) => routeKey(r.name) === routeKey(name))) return fail(`Två banor heter ${name}.`);
      routes.push({ name, description: text(properties.description), points, lengthMeters: pathLengthMeters(points) });
    } else if (type === "Point") {
      const p = position(coordinates);
      if (!p) return fail(`${where}: punkten är inte [longitud, latitud] i grader.`);
      starts.push({ label: text(properties.name) || DEFAULT_START_LABEL, position: p });
    } else {
      return fail(
        `${where} är av typen ${typeof type === "string" ? type : "okänd"}: banor ritas som linjer (LineString) och start och mål som en punkt (Point).`,
      );
    }
  }
  if (starts.length !== 1) {
    return fail(`Banfilen ska ha exakt en punkt (Point) för start och mål, men har ${starts.length}.`);
  }
  if (routes.length === 0) return fail("Banfilen har ingen bana (LineString).");
  routes.sort((a, b) => a.lengthMeters - b.lengthMeters);
  return { ok: true, courses: { routes, startFinish: starts[0]! } };
}

/**
 * How the map draws a route, by its name (spec, admin area §3: "Route colours on the public course map by name:
 * 0.8K blue, 1.6K yellow, 2.8K red, 5.6K red, others gray"). 2.8K and 5.6K share red, so 5.6K is dashed: on the
 * map and in the legend the two stay apart even when both are shown. The map and the legend's swatches both draw
 * from here (src/web/features/courses/).
 */
export interface RouteStyle {
  /** The line's colour (CSS). */
  color: string;
  /** SVG stroke-dasharray for a dashed line, in px at the line's width. */
  dashArray?: string;
  /** The colour in words, for the text version ('röd, streckad'). */
  colorName: string;
}

const BLUE = "#1e5fc8";
const YELLOW = "#f5c400";
const RED = "#d32f2f";
const GRAY = "#7b7b7b";

const BY_NAME: Readonly<Record<string, RouteStyle>> = {
  "0.8K": { color: BLUE, colorName: "blå" },
  "1.6K": { color: YELLOW, colorName: "gul" },
  "2.8K": { color: RED, colorName: "röd" },
  "5.6K": { color: RED, dashArray: "10 8", colorName: "röd, streckad" },
};

const OTHER: RouteStyle = { color: GRAY, colorName: "grå" };

/** The dark edge drawn under every line, so a yellow line stays visible on a light background or map tiles. */
export const CASING_COLOR = "#2b2b2b";

export function routeStyle(name: string): RouteStyle {
  return BY_NAME[routeKey(name)] ?? OTHER;
}
