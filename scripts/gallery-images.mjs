/**
 * Generates the demo gallery's photos as small SVG landscapes with runners (no real photos, nothing downloaded):
 * `{out}/{year}/{nn}.svg`, the files the seed's gallery lists point at (scripts/seed/gallery-plan.mjs).
 *
 *   node scripts/gallery-images.mjs [out-dir]     (default public/demo-galleri)
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { galleryPlan } from "./seed/gallery-plan.mjs";
import { createRandom } from "./seed/random.mjs";

const WIDTH = 640;
const HEIGHT = 427;

const SKIES = [
  ["#8ec5ff", "#e0f0ff"],
  ["#ffcf8a", "#fff1d6"],
  ["#a9d8f5", "#f4fbff"],
  ["#c7b8ff", "#fdf0ff"],
  ["#9fdcc8", "#effcf6"],
];
const HILLS = ["#5e9f5a", "#4d8a4f", "#7bb36b", "#6a9a4a", "#3f7a52"];
const SHIRTS = ["#f59e0b", "#6366f1", "#ef4444", "#10b981", "#0ea5e9", "#ec4899", "#facc15"];

function runner(random, x, ground, scale) {
  const shirt = random.pick(SHIRTS);
  const h = 60 * scale;
  const head = 7 * scale;
  const stride = random.int(8, 16) * scale;
  const top = ground - h;
  return [
    `<g stroke="#1f2937" stroke-width="${(4 * scale).toFixed(1)}" stroke-linecap="round" fill="none">`,
    `<path d="M${x} ${top + h * 0.55} L${x - stride} ${ground} M${x} ${top + h * 0.55} L${x + stride * 0.8} ${ground - 4 * scale}"/>`,
    `<path d="M${x} ${top + h * 0.25} L${x - stride * 0.8} ${top + h * 0.45} M${x} ${top + h * 0.25} L${x + stride} ${top + h * 0.35}"/>`,
    `</g>`,
    `<path d="M${x} ${top + h * 0.18} L${x} ${top + h * 0.58}" stroke="${shirt}" stroke-width="${(9 * scale).toFixed(1)}" stroke-linecap="round"/>`,
    `<circle cx="${x}" cy="${(top + h * 0.08).toFixed(1)}" r="${head.toFixed(1)}" fill="#f2c9a0"/>`,
  ].join("");
}

export function galleryImageSvg(year, index) {
  const random = createRandom(year * 100 + index);
  const [skyTop, skyBottom] = random.pick(SKIES);
  const hill1 = random.pick(HILLS);
  const hill2 = random.pick(HILLS);
  const sunX = random.int(60, 580);
  const ground = random.int(330, 370);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="Byloppet ${year}, bild ${index}">`,
    `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient></defs>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#s)"/>`,
    `<circle cx="${sunX}" cy="${random.int(50, 110)}" r="${random.int(22, 38)}" fill="#fde68a"/>`,
    `<path d="M0 ${ground - random.int(60, 120)} Q ${random.int(120, 260)} ${ground - random.int(140, 200)} ${random.int(300, 380)} ${ground - random.int(50, 90)} T ${WIDTH} ${ground - random.int(70, 130)} V ${HEIGHT} H 0 Z" fill="${hill1}" opacity="0.75"/>`,
    `<path d="M0 ${ground - random.int(20, 50)} Q ${random.int(200, 420)} ${ground - random.int(70, 110)} ${WIDTH} ${ground - random.int(10, 40)} V ${HEIGHT} H 0 Z" fill="${hill2}"/>`,
    `<rect y="${ground}" width="${WIDTH}" height="${HEIGHT - ground}" fill="#9ca3af"/>`,
    `<path d="M0 ${ground + 22} H ${WIDTH}" stroke="#f9fafb" stroke-width="3" stroke-dasharray="26 18"/>`,
  ];
  const count = random.int(1, 5);
  for (let i = 0; i < count; i++) {
    const x = Math.round(((i + 0.5) * WIDTH) / count + random.int(-30, 30));
    parts.push(runner(random, x, ground + random.int(8, 40), random.int(80, 120) / 100));
  }
  parts.push(
    `<rect x="18" y="18" rx="8" width="118" height="44" fill="#ffffff" opacity="0.85"/>`,
    `<text x="77" y="50" text-anchor="middle" font-family="system-ui, sans-serif" font-size="28" font-weight="700" fill="#b45309">${year}</text>`,
    `</svg>`,
  );
  return parts.join("\n") + "\n";
}

function main() {
  const out = process.argv[2] ?? "public/demo-galleri";
  // Only ever the demo folder: start from empty so a changed plan leaves no stale files behind.
  rmSync(out, { recursive: true, force: true });
  let files = 0;
  for (const { year, files: names } of galleryPlan()) {
    mkdirSync(path.join(out, String(year)), { recursive: true });
    names.forEach((name, i) => {
      writeFileSync(path.join(out, String(year), name), galleryImageSvg(year, i + 1));
      files++;
    });
  }
  console.log(`Demogalleri: ${files} bilder i ${out}`);
}

if (import.meta.url === `file://${path.resolve(process.argv[1] ?? "")}`) main();
