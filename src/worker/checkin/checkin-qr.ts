/**
 * The family's check-in QR: the code's printed form ('K7QM-2XRT-94HA') and nothing else, as SVG for the family's
 * page and as PNG for the receipt e-mail (mail clients such as Gmail show no SVG). Drawn from the code alone, so
 * the image says nothing about whether the code exists.
 */
import { encode } from "fast-png";
import QRCode from "qrcode-svg";
import { formatCheckinCode } from "../../shared/checkin";

function qr(code: string, options: { padding: number; width?: number }) {
  return new QRCode({
    content: formatCheckinCode(code),
    ecl: "M",
    padding: options.padding,
    width: options.width ?? 256,
    height: options.width ?? 256,
    join: true,
    pretty: false,
    xmlDeclaration: false,
    container: "svg-viewbox",
    // As tokenQrSvg (adapters/swish.ts): without the swap qrcode-svg draws the symbol transposed.
    swap: true,
  });
}

export function checkinQrSvg(code: string): string {
  return qr(code, { padding: 4 }).svg();
}

/** A grey-scale PNG, `scale` pixels per module, with the quiet zone of four modules a scanner wants. */
export function checkinQrPng(code: string, scale = 8): Uint8Array {
  const modules: boolean[][] = qr(code, { padding: 0 }).qrcode.modules;
  const border = 4;
  const count = modules.length + 2 * border;
  const px = count * scale;
  const data = new Uint8Array(px * px);
  for (let y = 0; y < px; y += 1) {
    const my = Math.floor(y / scale) - border;
    for (let x = 0; x < px; x += 1) {
      data[y * px + x] = modules[my]?.[Math.floor(x / scale) - border] ? 0 : 255;
    }
  }
  return encode({ width: px, height: px, data, depth: 8, channels: 1 });
}
