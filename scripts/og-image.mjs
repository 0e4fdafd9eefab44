/**
 * Draws the picture shown when a page is shared (og:image, 1200×630): the site's name, the four distances and
 * the logo's path, in the site's colours. The output, public/og-bild.png, is committed; run this again only after
 * changing the picture:   node scripts/og-image.mjs
 */
import path from "node:path";
import sharp from "sharp";

const out = path.join(import.meta.dirname, "..", "public", "og-bild.png");

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#fff8e1"/>
  <path d="M0 520 C 200 470, 380 560, 600 500 S 1000 440, 1200 500 L1200 630 L0 630 Z" fill="#ffb300"/>
  <path d="M80 560c60-15 105-60 105-120s45-90 105-90 105-45 120-120" fill="none" stroke="#fff" stroke-width="30" stroke-linecap="round"/>
  <path d="M80 560c60-15 105-60 105-120s45-90 105-90 105-45 120-120" fill="none" stroke="#3949ab" stroke-width="10" stroke-dasharray="18 18"/>
  <circle cx="410" cy="230" r="26" fill="#3949ab"/>
  <text x="520" y="250" font-family="DejaVu Sans, Arial, sans-serif" font-size="112" font-weight="700" fill="#1d1b20">Byloppet</text>
  <text x="524" y="330" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" fill="#283593">0,8 · 1,6 · 2,8 · 5,6 km</text>
  <text x="524" y="395" font-family="DejaVu Sans, Arial, sans-serif" font-size="36" fill="#55535e">Ett lopp för hela familjen</text>
</svg>`;

await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toFile(out);
console.log(`og-image: ${path.relative(process.cwd(), out)}`);
