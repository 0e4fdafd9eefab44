/**
 * Målfoto on the timing phone (issue 44): the rear camera aimed at the finish line, a short rolling buffer of frames
 * in memory, and for each press ('Mål!' or a finish tile) the frame nearest the press with the one before and after,
 * scaled (PHOTO_LONG_SIDE) and encoded as JPEG, handed to the photo queue (photo-queue.ts).
 *
 * States: off → starting (asking for the camera) → on (frames arrive) → off (the switch, leaving the screen); from
 * starting, `unavailable` with the reason in Swedish (no camera, permission refused, a browser without one): the
 * switch shows it and timing works exactly as before.
 *
 * Invariants:
 * - The press is never slower: the caller queues the tap first, then calls `keep(tap, pressedAt)`, which only
 *   notes the press (no pixels are touched in the press's handler). The frames are chosen in a later frame callback
 *   and encoded after it, off the press's path.
 * - The frame kept for a press is the buffered frame whose presentation time is nearest `pressedAt` (both on the
 *   page's performance clock), chosen once a frame after it has arrived (so 'after' exists); a press older than the
 *   buffer keeps what the buffer has.
 * - Memory is bounded: BUFFER_FRAMES bitmaps at most, each closed when it leaves the buffer; a press waits at most
 *   PRESS_WAIT_MS for its next frame, then keeps what there is.
 * Failure cases: encoding or storing a photo fails (the phone is out of storage): the photo is lost, never the tap.
 */
import { PHOTO_LONG_SIDE } from "../../../shared/finish-photos";

/** Frames kept in memory: at 30 fps a third of a second either side of a press. */
const BUFFER_FRAMES = 12;
/** A press with no frame after it this long keeps the frames there are. */
const PRESS_WAIT_MS = 1_000;
const JPEG_QUALITY = 0.72;

export type CameraState =
  { kind: "off" } | { kind: "starting" } | { kind: "on" } | { kind: "unavailable"; reason: string };

/** What a press keeps: frames 0 before, 1 nearest, 2 after (fewer when the buffer had fewer). */
export interface KeptPhoto {
  tap: string;
  frames: { frame: number; blob: Blob }[];
}

interface BufferedFrame {
  at: number;
  bitmap: ImageBitmap;
}

type VideoWithFrames = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { presentationTime?: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/** Why the camera cannot be used, in Swedish, from getUserMedia's error. */
export function cameraProblem(err: unknown): string {
  const name = (err as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "Kameran får inte användas: tillåt kameran för sajten i webbläsarens inställningar.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") return "Telefonen har ingen kamera att använda.";
  if (name === "NotReadableError") return "Kameran används av en annan app.";
  return "Kameran kunde inte startas.";
}

export class FinishCamera {
  private stream: MediaStream | null = null;
  private handle: number | null = null;
  private buffer: BufferedFrame[] = [];
  private presses: { tap: string; at: number }[] = [];
  private state: CameraState = { kind: "off" };
  private listeners = new Set<(state: CameraState) => void>();

  constructor(
    private readonly video: VideoWithFrames,
    private readonly onKept: (photo: KeptPhoto) => void,
  ) {}

  get current(): CameraState {
    return this.state;
  }

  subscribe(listener: (state: CameraState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    if (this.state.kind === "on" || this.state.kind === "starting") return;
    if (!navigator.mediaDevices?.getUserMedia || !this.video.requestVideoFrameCallback) {
      this.set({ kind: "unavailable", reason: "Webbläsaren kan inte ta målfoton." });
      return;
    }
    this.set({ kind: "starting" });
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: false,
      });
      if ((this.state as CameraState).kind !== "starting") {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      this.stream = stream;
      this.video.muted = true;
      this.video.playsInline = true;
      this.video.srcObject = stream;
      await this.video.play();
      this.set({ kind: "on" });
      this.next();
    } catch (err) {
      this.stop();
      this.set({ kind: "unavailable", reason: cameraProblem(err) });
    }
  }

  stop(): void {
    if (this.handle !== null) this.video.cancelVideoFrameCallback?.(this.handle);
    this.handle = null;
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    this.video.srcObject = null;
    for (const f of this.buffer) f.bitmap.close();
    this.buffer = [];
    this.presses = [];
    if (this.state.kind !== "unavailable") this.set({ kind: "off" });
  }

  /** A press at `pressedAt` (performance clock): its frames are kept from the next frame callback on. */
  keep(tap: string, pressedAt: number): void {
    if (this.state.kind !== "on") return;
    this.presses.push({ tap, at: pressedAt });
  }

  private set(state: CameraState): void {
    this.state = state;
    for (const l of this.listeners) l(state);
  }

  private next(): void {
    this.handle = this.video.requestVideoFrameCallback!((now, meta) => {
      this.handle = null;
      if (!this.stream) return;
      this.onFrame(meta.presentationTime ?? now);
      this.next();
    });
  }

  private onFrame(at: number): void {
    const { videoWidth: w, videoHeight: h } = this.video;
    if (w === 0 || h === 0) return;
    const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(w, h));
    const width = Math.round(w * scale);
    const height = Math.round(h * scale);
    // The current frame, copied now (createImageBitmap takes the frame the video shows at the call).
    const copy = createImageBitmap(this.video, { resizeWidth: width, resizeHeight: height, resizeQuality: "low" });
    void copy.then(
      (bitmap) => {
        if (!this.stream) return bitmap.close();
        this.buffer.push({ at, bitmap });
        this.settle(at);
        while (this.buffer.length > BUFFER_FRAMES) this.buffer.shift()!.bitmap.close();
      },
      () => undefined,
    );
  }

  /** Every press whose nearest frame has a frame after it (or that waited PRESS_WAIT_MS) gets its frames kept. */
  private settle(latest: number): void {
    this.presses = this.presses.filter((press) => {
      const nearest = nearestFrame(this.buffer, press.at);
      if (nearest === -1) return false;
      if (nearest === this.buffer.length - 1 && latest - press.at < PRESS_WAIT_MS) return true;
      this.choose(press, nearest);
      return false;
    });
  }

  private choose(press: { tap: string; at: number }, nearest: number): void {
    const buffer = this.buffer;
    const chosen = [nearest - 1, nearest, nearest + 1]
      .map((index, frame) => ({ frame, source: buffer[index] }))
      .filter((c): c is { frame: number; source: BufferedFrame } => c.source !== undefined)
      // Drawn now (the bitmaps may leave the buffer before the encoding ends).
      .map(({ frame, source }) => ({ frame, canvas: drawn(source.bitmap) }));
    void Promise.all(
      chosen.map(async ({ frame, canvas }) => ({ frame, blob: await canvas.convertToBlob(JPEG_QUALITY_OPTIONS) })),
    ).then(
      (frames) => this.onKept({ tap: press.tap, frames }),
      () => undefined,
    );
  }
}

/** The index of the buffered frame nearest `at` (-1: none). */
function nearestFrame(buffer: readonly BufferedFrame[], at: number): number {
  let nearest = -1;
  for (let i = 0; i < buffer.length; i += 1) {
    if (nearest === -1 || Math.abs(buffer[i]!.at - at) < Math.abs(buffer[nearest]!.at - at)) nearest = i;
  }
  return nearest;
}

const JPEG_QUALITY_OPTIONS = { type: "image/jpeg", quality: JPEG_QUALITY };

function drawn(bitmap: ImageBitmap): OffscreenCanvas {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext("2d")!.drawImage(bitmap, 0, 0);
  return canvas;
}
