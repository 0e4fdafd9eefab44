/**
 * The course map's data: routes.geo.json, next to this file, is the one place the routes and the start/finish
 * point are kept (docs/public-site.md, "Course map": draw or edit them in geojson.io and save over that file). It is bundled
 * with the page, so the build's pre-render already has the legend with each route's length, computed from the
 * coordinates (src/shared/geo.ts). A file that cannot be read gives the reason instead, which the page shows in
 * place of the map; test/shared/geo.test.ts reads the repository's file, so a broken one also fails the tests.
 *
 * The geography in the repository is invented (nothing may be downloaded at build or test time): four loops
 * through a made-up village, measured to 0.8, 1.6, 2.8 and 5.6 km.
 */
import { readCourses, type CoursesResult } from "../../../shared/geo";
import routesFile from "./routes.geo.json";

export const COURSES: CoursesResult = readCourses(routesFile);
