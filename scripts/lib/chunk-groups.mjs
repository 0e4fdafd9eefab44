/**
 * Which folder of dist/client/assets a built JavaScript chunk goes to (vite.config.ts): the code of one audience
 * only, kept apart so the browser tests can check from request addresses alone that it loads only where it is
 * used (DESIGN.md: "admin, timing, map and carousel code load only where used").
 *
 * A chunk belongs to a group when it holds any module of that group and none of another (Vite's helpers and code
 * every audience shares, such as src/shared or components/ui, count for none): whoever downloads it downloads that
 * group's code. A chunk of no group, or of two, stays in assets/.
 */
const GROUPS = [
  // Organisers: the admin shell and screens, race day, the chart library of the analytics page, and the QR decoder
  // of the bib desk.
  [
    "admin",
    [
      /\/src\/web\/features\/(admin|race-day)\//,
      /\/node_modules\/chart\.js\//,
      /\/node_modules\/@kurkle\//,
      /\/node_modules\/jsqr\//,
    ],
  ],
  ["timing", [/\/src\/web\/features\/timing\//]],
  ["map", [/\/src\/web\/features\/courses\/map/, /\/node_modules\/leaflet\//]],
  ["carousel", [/\/src\/web\/features\/gallery\/carousel/]],
];

/** @param {{ moduleIds: readonly string[] }} chunk @returns {string | null} */
export function chunkGroup({ moduleIds }) {
  const found = new Set();
  for (const id of moduleIds) {
    const path = id.replaceAll("\\", "/");
    for (const [name, patterns] of GROUPS) if (patterns.some((p) => p.test(path))) found.add(name);
  }
  return found.size === 1 ? [...found][0] : null;
}

/** Every group's folder name, for the tests. */
export const CHUNK_GROUPS = GROUPS.map(([name]) => name);
