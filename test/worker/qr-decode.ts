/**
 * A small QR decoder for the tests, written from the QR specification (ISO/IEC 18004) and independent of the
 * library that draws our codes: it reads the modules of a rendered SVG, the format information, unmasks the data
 * and reads the byte-mode text. Enough for what the site draws (versions 1–6, error correction M, one segment,
 * no damage to repair); anything else is an error, never a guess.
 */

/** The dark modules of an SVG drawn as one path of unit squares (`M x,y V … H … Z`), as a square matrix. */
export function modulesFromSvg(svg: string): boolean[][] {
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const path = /<path[^>]* d="([^"]+)"/.exec(svg);
  if (!viewBox || !path) throw new Error("not an SVG with one path");
  const corners = [...path[1]!.matchAll(/M([\d.]+),([\d.]+) V([\d.]+) H([\d.]+)/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    size: Number(m[3]) - Number(m[2]),
  }));
  if (corners.length === 0) throw new Error("no modules");
  const size = corners[0]!.size;
  const total = Math.round(Number(viewBox[1]) / size);
  const origin = Math.min(...corners.map((c) => Math.round(c.x / size)));
  const count = total - 2 * origin;
  const matrix = Array.from({ length: count }, () => Array<boolean>(count).fill(false));
  for (const c of corners) matrix[Math.round(c.y / size) - origin]![Math.round(c.x / size) - origin] = true;
  return matrix;
}

const ALIGNMENT: Record<number, number[]> = { 1: [], 2: [6, 18], 3: [6, 22], 4: [6, 26], 5: [6, 30], 6: [6, 34] };
/** Error correction M: [blocks, data codewords per block] (all blocks equal up to version 6). */
const BLOCKS_M: Record<number, [number, number]> = {
  1: [1, 16],
  2: [1, 28],
  3: [1, 44],
  4: [2, 32],
  5: [2, 43],
  6: [4, 27],
};
const LEVELS = ["M", "L", "H", "Q"]; // the two format bits 00, 01, 10, 11

const MASKS: ((r: number, c: number) => boolean)[] = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/** The 15-bit format word for 5 bits of data: BCH(15,5) with generator 10100110111, masked with 101010000010010. */
function formatWord(data: number): number {
  let rem = data << 10;
  for (let i = 14; i >= 10; i--) if (rem & (1 << i)) rem ^= 0b10100110111 << (i - 10);
  return ((data << 10) | rem) ^ 0b101010000010010;
}

function readFormat(m: boolean[][]): { level: string; mask: number } {
  // The copy around the top-left finder, [row, column] of bit 0 (least significant) to bit 14.
  const cells: [number, number][] = [
    ...[0, 1, 2, 3, 4, 5].map((r): [number, number] => [r, 8]),
    [7, 8],
    [8, 8],
    [8, 7],
    ...[5, 4, 3, 2, 1, 0].map((c): [number, number] => [8, c]),
  ];
  let word = 0;
  cells.forEach(([r, c], bit) => (word |= (m[r]![c]! ? 1 : 0) << bit));
  let best = { data: -1, distance: 99 };
  for (let data = 0; data < 32; data++) {
    let diff = formatWord(data) ^ word;
    let distance = 0;
    for (; diff; diff &= diff - 1) distance++;
    if (distance < best.distance) best = { data, distance };
  }
  if (best.distance > 3) throw new Error("unreadable format information");
  return { level: LEVELS[best.data >> 3]!, mask: best.data & 7 };
}

function functionModules(size: number, version: number): boolean[][] {
  const f = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  const mark = (r0: number, c0: number, h: number, w: number) => {
    for (let r = Math.max(0, r0); r < Math.min(size, r0 + h); r++) {
      for (let c = Math.max(0, c0); c < Math.min(size, c0 + w); c++) f[r]![c] = true;
    }
  };
  // Finders with separators and format areas.
  mark(0, 0, 9, 9);
  mark(0, size - 8, 9, 8);
  mark(size - 8, 0, 8, 9);
  // Timing patterns.
  mark(6, 0, 1, size);
  mark(0, 6, size, 1);
  for (const r of ALIGNMENT[version]!) {
    for (const c of ALIGNMENT[version]!) {
      if ((r === 6 && c === 6) || (r === 6 && c === size - 7) || (r === size - 7 && c === 6)) continue;
      mark(r - 2, c - 2, 5, 5);
    }
  }
  return f;
}

/** The text a QR code (as a module matrix) encodes. */
export function decodeQr(m: boolean[][]): string {
  const size = m.length;
  const version = (size - 17) / 4;
  if (!Number.isInteger(version) || !BLOCKS_M[version]) throw new Error(`unsupported size ${size}`);
  const { level, mask } = readFormat(m);
  if (level !== "M") throw new Error(`unsupported error correction ${level}`);
  const isFunction = functionModules(size, version);
  const bits: number[] = [];
  let upward = true;
  for (let right = size - 1; right > 0; right -= 2) {
    if (right === 6) right--; // the vertical timing column is skipped
    for (let i = 0; i < size; i++) {
      const row = upward ? size - 1 - i : i;
      for (const col of [right, right - 1]) {
        if (isFunction[row]![col]) continue;
        bits.push(m[row]![col]! !== MASKS[mask]!(row, col) ? 1 : 0);
      }
    }
    upward = !upward;
  }
  const codewords: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  // Data codewords are interleaved across the blocks: block 0's first, block 1's first, …
  const [blocks, perBlock] = BLOCKS_M[version]!;
  const data: number[] = [];
  for (let b = 0; b < blocks; b++) for (let i = 0; i < perBlock; i++) data.push(codewords[i * blocks + b]!);
  const stream = data.flatMap((byte) => [7, 6, 5, 4, 3, 2, 1, 0].map((s) => (byte >> s) & 1));
  const take = (n: number) => stream.splice(0, n).reduce((a, b) => (a << 1) | b, 0);
  const mode = take(4);
  if (mode !== 0b0100) throw new Error(`unsupported mode ${mode.toString(2)}`);
  const length = take(8);
  return new TextDecoder().decode(new Uint8Array(Array.from({ length }, () => take(8))));
}
