/**
 * A fake camera for Chromium: a .y4m video (a one-line header, then per frame a FRAME line and the raw YUV 4:2:0
 * planes) that Chromium plays as the phone's camera with `--use-fake-device-for-media-stream
 * --use-file-for-fake-video-capture=<file>` (it loops the file). Used by the bib desk's QR test (check-in.test.ts)
 * and Målfoto's (finish-photos.test.ts, whose frames carry their number: `numberedFrames`, read back by
 * `FRAME_NUMBER_READER` in the page).
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes the video (grey-scale: each frame's luma plane, chroma neutral) and answers its path. */
export function writeY4m(
  name: string,
  width: number,
  height: number,
  fps: number,
  frames: readonly Uint8Array[],
): string {
  const chroma = new Uint8Array((width / 2) * (height / 2)).fill(128);
  const file = join(tmpdir(), `${name}-${Date.now().toString(36)}.y4m`);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`)];
  for (const y of frames) parts.push(Buffer.from("FRAME\n"), Buffer.from(y), Buffer.from(chroma), Buffer.from(chroma));
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

const BLACK = 16;
const WHITE = 235;
/** The number's bits: BITS squares in a row across the middle, the lowest bit first. */
const BITS = 12;
/** The frames' size: 16:9 like the camera's asked-for 1280×720, so a scaled frame is never cropped or stretched. */
const WIDTH = 384;
const HEIGHT = 216;

/** Seven-segment digits: which of a–g each digit lights. */
const SEGMENTS = ["abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg"];

/**
 * `count` frames of `width`×`height`, each showing its number twice: as large seven-segment digits (for a person
 * looking at a photo) and as a row of black and white squares (its bits, for the test to read back).
 */
export function numberedFrames(count: number, width = WIDTH, height = HEIGHT): Uint8Array[] {
  const frames: Uint8Array[] = [];
  const cell = Math.floor(width / (BITS + 2));
  for (let n = 0; n < count; n += 1) {
    const y = new Uint8Array(width * height).fill(WHITE);
    const box = (x0: number, y0: number, w: number, h: number) => {
      for (let r = y0; r < y0 + h; r += 1) y.fill(BLACK, r * width + x0, r * width + x0 + w);
    };
    const middle = Math.floor((height - cell) / 2);
    for (let bit = 0; bit < BITS; bit += 1) if ((n >> bit) & 1) box(cell * (bit + 1), middle, cell, cell);
    // The digits below the bits.
    const digits = String(n).padStart(3, "0");
    const dw = Math.floor(width / 6);
    const dh = Math.floor(height / 3);
    const t = Math.max(4, Math.floor(dw / 6));
    digits.split("").forEach((d, i) => {
      const x = Math.floor(width / 10) + i * (dw + t * 2);
      const top = Math.floor(height / 2) + cell;
      const lit = SEGMENTS[Number(d)]!;
      if (lit.includes("a")) box(x, top, dw, t);
      if (lit.includes("b")) box(x + dw - t, top, t, dh / 2);
      if (lit.includes("c")) box(x + dw - t, top + dh / 2, t, dh / 2);
      if (lit.includes("d")) box(x, top + dh - t, dw, t);
      if (lit.includes("e")) box(x, top + dh / 2, t, dh / 2);
      if (lit.includes("f")) box(x, top, t, dh / 2);
      if (lit.includes("g")) box(x, top + dh / 2 - t / 2, dw, t);
    });
    frames.push(y);
  }
  return frames;
}

/**
 * The page-side reader, as source text for `page.evaluate`: `readFrameNumber(source)` draws an image or video onto a
 * canvas and reads the bit squares at their relative places (any scale the camera or the JPEG gave it).
 */
export const FRAME_NUMBER_READER = `
window.readFrameNumber = (source) => {
  const w = source.videoWidth || source.naturalWidth || source.width;
  const h = source.videoHeight || source.naturalHeight || source.height;
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(source, 0, 0, w, h);
  const cell = Math.floor(${WIDTH} / ${BITS + 2});
  const sx = w / ${WIDTH};
  const sy = h / ${HEIGHT};
  const middle = Math.floor((${HEIGHT} - cell) / 2) + cell / 2;
  let n = 0;
  for (let bit = 0; bit < ${BITS}; bit += 1) {
    const px = ctx.getImageData(Math.round(sx * cell * (bit + 1.5)), Math.round(sy * middle), 1, 1).data;
    if (px[0] < 128) n |= 1 << bit;
  }
  return n;
};
`;
