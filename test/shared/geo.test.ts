import { describe, expect, it } from "vitest";
import {
  DEFAULT_START_LABEL,
  EARTH_RADIUS_M,
  formatKm,
  formatMeters,
  haversineMeters,
  pathLengthMeters,
  readCourses,
  routeKey,
  routeStyle,
  type Courses,
} from "../../src/shared/geo";
import routesFile from "../../src/web/features/courses/routes.geo.json";

const ONE_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180; // 111 195.08 m

describe("haversine", () => {
  it("measures a degree along a meridian and along the equator", () => {
    expect(haversineMeters({ lat: 59, lng: 15 }, { lat: 60, lng: 15 })).toBeCloseTo(ONE_DEGREE, 3);
    expect(haversineMeters({ lat: 0, lng: 10 }, { lat: 0, lng: 11 })).toBeCloseTo(ONE_DEGREE, 3);
  });

  it("shrinks east-west distances by the cosine of the latitude", () => {
    // At 60° N a degree of longitude is half a degree of the equator (to within the chord/arc difference).
    expect(haversineMeters({ lat: 60, lng: 15 }, { lat: 60, lng: 15.01 })).toBeCloseTo(ONE_DEGREE * 0.01 * 0.5, 1);
  });

  it("is zero for one point, symmetric, and half the circumference between antipodes", () => {
    const a = { lat: 59.3293, lng: 18.0686 };
    const b = { lat: 57.7089, lng: 11.9746 };
    expect(haversineMeters(a, a)).toBe(0);
    expect(haversineMeters(a, b)).toBeCloseTo(haversineMeters(b, a), 6);
    // Stockholm–Göteborg as the crow flies: about 398 km.
    expect(haversineMeters(a, b) / 1000).toBeGreaterThan(396);
    expect(haversineMeters(a, b) / 1000).toBeLessThan(400);
    expect(haversineMeters({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 3);
  });
});

describe("path length", () => {
  it("adds up the legs in order", () => {
    const points = [
      { lat: 59, lng: 15 },
      { lat: 59.001, lng: 15 },
      { lat: 59.001, lng: 15.002 },
      { lat: 59, lng: 15 },
    ];
    const legs = haversineMeters(points[0]!, points[1]!) + haversineMeters(points[1]!, points[2]!);
    const back = haversineMeters(points[2]!, points[0]!);
    expect(pathLengthMeters(points)).toBeCloseTo(legs + back, 6);
    expect(pathLengthMeters(points.slice(0, 2))).toBeCloseTo(ONE_DEGREE / 1000, 3);
  });

  it("is zero for no point or one point", () => {
    expect(pathLengthMeters([])).toBe(0);
    expect(pathLengthMeters([{ lat: 59, lng: 15 }])).toBe(0);
  });
});

describe("formats", () => {
  it("writes kilometres with one decimal and a decimal comma", () => {
    expect(formatKm(5612)).toBe("5,6 km");
    expect(formatKm(799.6)).toBe("0,8 km");
    expect(formatKm(1649)).toBe("1,6 km");
    expect(formatKm(1650)).toBe("1,7 km");
    expect(formatKm(2800)).toBe("2,8 km");
    expect(formatKm(12_345)).toBe("12,3 km");
  });

  it("writes whole metres with a thin space between thousands", () => {
    expect(formatMeters(812.4)).toBe("812 m");
    expect(formatMeters(5612)).toBe("5\u202f612 m");
    expect(formatMeters(1_234_567)).toBe("1\u202f234\u202f567 m");
  });
});

const line = (name: unknown, coordinates: unknown, extra: Record<string, unknown> = {}) => ({
  type: "Feature",
  properties: { name, ...extra },
  geometry: { type: "LineString", coordinates },
});
const point = (coordinates: unknown, name?: string) => ({
  type: "Feature",
  properties: name === undefined ? {} : { name },
  geometry: { type: "Point", coordinates },
});
const collection = (...features: unknown[]) => ({ type: "FeatureCollection", features });

const LONG = [
  [15, 59],
  [15.01, 59],
  [15, 59],
];
const SHORT = [
  [15, 59],
  [15, 59.001],
  [15, 59],
];

function ok(geojson: unknown): Courses {
  const result = readCourses(geojson);
  if (!result.ok) throw new Error(result.error);
  return result.courses;
}

function error(geojson: unknown): string {
  const result = readCourses(geojson);
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.error;
}

describe("reading the course map file", () => {
  it("reads routes with their length and description, shortest first, and the start/finish point", () => {
    const courses = ok(
      collection(
        line("5.6K", LONG, { description: " Lång. " }),
        point([15, 59], "Start och mål: matsalen"),
        line("0.8K", SHORT),
      ),
    );
    expect(courses.routes.map((r) => r.name)).toEqual(["0.8K", "5.6K"]);
    expect(courses.routes[0]!.lengthMeters).toBeCloseTo(
      2 * haversineMeters({ lat: 59, lng: 15 }, { lat: 59.001, lng: 15 }),
      6,
    );
    expect(courses.routes[1]!.description).toBe("Lång.");
    expect(courses.routes[0]!.description).toBe("");
    expect(courses.routes[0]!.points[1]).toEqual({ lat: 59.001, lng: 15 });
    expect(courses.startFinish).toEqual({ label: "Start och mål: matsalen", position: { lat: 59, lng: 15 } });
  });

  it("takes an altitude after longitude and latitude, and names an unnamed start point", () => {
    const courses = ok(
      collection(
        point([15, 59, 31.5]),
        line("1.6K", [
          [15, 59, 30],
          [15, 59.01, 32],
        ]),
      ),
    );
    expect(courses.startFinish.label).toBe(DEFAULT_START_LABEL);
    expect(courses.routes[0]!.points).toEqual([
      { lat: 59, lng: 15 },
      { lat: 59.01, lng: 15 },
    ]);
  });

  it("refuses what is not a feature collection", () => {
    for (const bad of [
      null,
      "text",
      [],
      { type: "Feature" },
      { type: "FeatureCollection" },
      { type: "FeatureCollection", features: {} },
    ]) {
      expect(error(bad)).toMatch(/inte en GeoJSON-samling/);
    }
  });

  it("names the feature that is not a feature", () => {
    expect(error(collection(point([15, 59]), { type: "Feature", properties: {} }))).toBe(
      "Objekt 2 i banfilen är inte ett GeoJSON-objekt (Feature med geometry).",
    );
    expect(error(collection(42))).toMatch(/^Objekt 1 i banfilen/);
  });

  it("refuses a route without a name, with fewer than two points, or with a coordinate out of range", () => {
    expect(error(collection(point([15, 59]), line("", SHORT)))).toMatch(/^Objekt 2 i banfilen är en linje utan namn/);
    expect(error(collection(point([15, 59]), line(5.6, SHORT)))).toMatch(/linje utan namn/);
    expect(error(collection(point([15, 59]), line("0.8K", [[15, 59]])))).toBe("Banan 0.8K har färre än två punkter.");
    expect(error(collection(point([15, 59]), line("0.8K", "15,59")))).toBe("Banan 0.8K har färre än två punkter.");
    expect(
      error(
        collection(
          point([15, 59]),
          line("0.8K", [
            [15, 59],
            [59, 95],
          ]),
        ),
      ),
    ).toBe("Banan 0.8K: punkt 2 är inte [longitud, latitud] i grader.");
    expect(
      error(
        collection(
          point([15, 59]),
          line("0.8K", [
            [15, 59],
            ["15", 59],
          ]),
        ),
      ),
    ).toMatch(/punkt 2/);
    expect(error(collection(point([15, 59]), line("0.8K", [[15, 59], [15]])))).toMatch(/punkt 2/);
    expect(
      error(
        collection(
          point([15, 59]),
          line("0.8K", [
            [15, 59],
            [15, 59, 1, 2],
          ]),
        ),
      ),
    ).toMatch(/punkt 2/);
  });

  it("refuses two routes with the same name, however written", () => {
    expect(error(collection(point([15, 59]), line("5.6K", LONG), line(" 5,6k", SHORT)))).toBe("Två banor heter 5,6k.");
  });

  it("refuses other geometry types", () => {
    const polygon = { type: "Feature", properties: { name: "X" }, geometry: { type: "Polygon", coordinates: [LONG] } };
    expect(error(collection(point([15, 59]), polygon))).toBe(
      "Objekt 2 i banfilen är av typen Polygon: banor ritas som linjer (LineString) och start och mål som en punkt (Point).",
    );
  });

  it("wants exactly one start/finish point and at least one route", () => {
    expect(error(collection(line("0.8K", SHORT)))).toBe(
      "Banfilen ska ha exakt en punkt (Point) för start och mål, men har 0.",
    );
    expect(error(collection(point([15, 59]), point([15.1, 59]), line("0.8K", SHORT)))).toMatch(/men har 2\.$/);
    expect(error(collection(point([15, 59])))).toBe("Banfilen har ingen bana (LineString).");
    expect(error(collection(point([200, 59]), line("0.8K", SHORT)))).toMatch(/punkten är inte/);
  });

  it("compares route names by their key", () => {
    expect(routeKey(" 5,6k ")).toBe("5.6K");
    expect(routeKey("5.6K")).toBe(routeKey("5,6K"));
    expect(routeKey("2.8K")).not.toBe(routeKey("5.6K"));
  });
});

describe("the repository's routes file", () => {
  const courses = ok(routesFile);

  it("has the four distances, each measured within 3 % of its nominal length", () => {
    expect(courses.routes.map((r) => r.name)).toEqual(["0.8K", "1.6K", "2.8K", "5.6K"]);
    const nominal = [800, 1600, 2800, 5600];
    courses.routes.forEach((route, i) => {
      expect(Math.abs(route.lengthMeters - nominal[i]!) / nominal[i]!).toBeLessThan(0.03);
      expect(route.description.length).toBeGreaterThan(20);
    });
    expect(courses.routes.map((r) => `${r.name} – ${formatKm(r.lengthMeters)}`)).toEqual([
      "0.8K – 0,8 km",
      "1.6K – 1,6 km",
      "2.8K – 2,8 km",
      "5.6K – 5,6 km",
    ]);
  });

  it("starts and finishes every route at the school dining hall", () => {
    expect(courses.startFinish.label).toBe("Start och mål: skolans matsal");
    for (const route of courses.routes) {
      expect(haversineMeters(route.points[0]!, courses.startFinish.position)).toBeLessThan(25);
      expect(haversineMeters(route.points.at(-1)!, courses.startFinish.position)).toBeLessThan(25);
    }
  });
});

describe("route colours (admin area §3)", () => {
  it("draws 0.8K blue, 1.6K yellow, 2.8K and 5.6K red, 5.6K dashed so the two reds differ", () => {
    expect(routeStyle("0.8K").colorName).toBe("blå");
    expect(routeStyle("1.6K").colorName).toBe("gul");
    expect(routeStyle("2.8K").colorName).toBe("röd");
    expect(routeStyle("2.8K").dashArray).toBeUndefined();
    expect(routeStyle("5.6K").color).toBe(routeStyle("2.8K").color);
    expect(routeStyle("5.6K").dashArray).toBeTruthy();
    expect(new Set(["0.8K", "1.6K", "2.8K"].map((n) => routeStyle(n).color)).size).toBe(3);
  });

  it("finds the colour however the name is written, and draws any other route gray", () => {
    expect(routeStyle(" 5,6k")).toEqual(routeStyle("5.6K"));
    for (const other of ["10K", "Barnloppet", "0.8", ""]) expect(routeStyle(other).colorName).toBe("grå");
  });
});
