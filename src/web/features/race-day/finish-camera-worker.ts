/// <reference lib="webworker" />
/**
 * Målfoto's pixel work, off the page's main thread (finish-camera.ts starts it): the rolling buffer of frames (each
 * camera frame's pixels copied as they are, `RawFrame`), the choice of the frame nearest each press (with the one
 * before and after) and their scaling and JPEG encoding. A press's handler never waits behind a frame being copied or
 * encoded.
 *
 * Messages in (`WorkerIn`):
 * - `camera`: the camera's frames as a stream (a `MediaStreamTrackProcessor`'s readable, transferred: Chromium then
 *   hands each frame to this thread without the page's main thread). Each `VideoFrame`'s `timestamp` is its capture
 *   moment on the browser's monotonic clock (microseconds since the device started), not the page's clock:
 *   camera-clock.ts puts it on the page's clock.
 * - `captured`: the capture moment of a frame the page showed, on the page's clock (a frame callback's `captureTime`;
 *   the page asks for a few when the camera starts): sets that clock exactly.
 * - `frame`: one frame with its moment on the page's clock, from a browser without `MediaStreamTrackProcessor` (the
 *   page's frame callback, as a `VideoFrame` or a scaled `ImageBitmap`).
 * - a press (its moment on the page's clock), `stop`.
 * Out (`WorkerOut`): the frames kept for a press.
 *
 * Invariants (as finish-camera.ts states them): the frame kept for a press is the buffered frame whose moment is
 * nearest the press, chosen once a frame after it has arrived or PRESS_WAIT_MS passed; at most BUFFER_FRAMES
 * frames (a 1280×720 camera's raw frame is 1.4 MB: about 17 MB, and SPARE_BUFFERS more for reuse), a bitmap closed
 * when it leaves; every `VideoFrame` is closed as soon as it is copied or let go (the camera reuses its buffers);
 * only a press's three frames are converted, scaled (PHOTO_LONG_SIDE) and encoded.
 */
import { PHOTO_LONG_SIDE } from "../../../shared/finish-photos";
import { PageClock } from "./camera-clock";

/** Frames kept in memory: at 30 fps a third of a second either side of a press. */
const BUFFER_FRAMES = 12;
/** A press with no frame after it this long keeps the frames there are. */
const PRESS_WAIT_MS = 1_000;
const JPEG = { type: "image/jpeg", quality: 0.72 };

export type WorkerIn =
  | { type: "camera"; frames: ReadableStream<VideoFrame>; timeOrigin: number }
  | { type: "captured"; at: number }
  | { type: "frame"; at: number; frame: VideoFrame | ImageBitmap }
  | { type: "press"; tap: string; at: number }
  | { type: "stop" };

export interface WorkerOut {
  type: "kept";
  tap: string;
  frames: { frame: number; blob: Blob }[];
}

/**
 * A camera frame's pixels as the camera gave them (`VideoFrame.copyTo`: a copy of memory, no colour conversion and
 * no scaling), with what makes a `VideoFrame` of them again. Converting and scaling each of 30 frames a second took
 * the worker most of a core of the benchmark's 2-core machine (bench/finish-photos.mjs), which the page's main thread then
 * lacked; now only a press's three frames are converted and scaled.
 */
interface RawFrame {
  data: ArrayBuffer;
  init: VideoFrameBufferInit;
}

interface BufferedFrame {
  at: number;
  /** A raw frame, or a bitmap already scaled (a frame in a format that cannot be copied, or the page's copy). */
  image: RawFrame | ImageBitmap;
}

/** Buffers of frames that left the buffer, used again for the next frames (no new allocation per frame). */
let spare: ArrayBuffer[] = [];

const scope = self as unknown as DedicatedWorkerGlobalScope;
let buffer: BufferedFrame[] = [];
let presses: { tap: string; at: number }[] = [];
let stopped = false;
// Frames are copied one after another, so the buffer gets them in their order.
let copying: Promise<void> = Promise.resolve();
/** Frames waiting to be copied; beyond MAX_WAITING a frame is let go at once (a phone too busy to keep up). */
let waiting = 0;
const MAX_WAITING = 3;
/** Buffers kept for the next frames. */
const SPARE_BUFFERS = 2;

let clock: PageClock | null = null;
let reader: ReadableStreamDefaultReader<VideoFrame> | null = null;

scope.onmessage = (event: MessageEvent<WorkerIn>) => {
  const message = event.data;
  if (message.type === "stop") {
    stopped = true;
    void reader?.cancel().catch(() => undefined);
    for (const f of buffer) release(f.image);
    buffer = [];
    spare = [];
    presses = [];
    scope.close();
  } else if (message.type === "press") {
    if (!stopped) presses.push({ tap: message.tap, at: message.at });
  } else if (message.type === "camera") {
    clock = new PageClock();
    void read(message.frames.getReader(), clock, performance.timeOrigin - message.timeOrigin);
  } else if (message.type === "captured") {
    clock?.capturedAt(message.at);
  } else {
    received(message.at, message.frame);
  }
};

/** The camera's frames as they come, each on the page's clock, until the stream ends or the worker stops. */
async function read(
  frames: ReadableStreamDefaultReader<VideoFrame>,
  pageClock: PageClock,
  originGap: number,
): Promise<void> {
  reader = frames;
  for (;;) {
    let next: ReadableStreamReadResult<VideoFrame>;
    try {
      next = await frames.read();
    } catch {
      return;
    }
    if (next.done) return;
    // Its arrival on the page's clock: this worker's clock starts elsewhere (its time origin, not the page's).
    const arrival = performance.now() + originGap;
    received(pageClock.frame(next.value.timestamp / 1000, arrival), next.value);
  }
}

function received(at: number, frame: VideoFrame | ImageBitmap): void {
  if (stopped || waiting >= MAX_WAITING) {
    frame.close();
    return;
  }
  waiting += 1;
  copying = copying.then(() => add(at, frame)).finally(() => (waiting -= 1));
}

async function add(at: number, frame: VideoFrame | ImageBitmap): Promise<void> {
  let image: RawFrame | ImageBitmap;
  try {
    if (stopped) return;
    image = await copied(frame);
  } catch {
    return;
  } finally {
    // A VideoFrame holds one of the camera's buffers: given back now. (A bitmap is the frame itself.)
    if ("codedWidth" in frame) frame.close();
  }
  if (stopped) return release(image);
  buffer.push({ at, image });
  settle(at);
  while (buffer.length > BUFFER_FRAMES) release(buffer.shift()!.image);
}

/** A frame as the buffer keeps it: its pixels copied as they are (`RawFrame`), or scaled when they cannot be. */
async function copied(frame: VideoFrame | ImageBitmap): Promise<RawFrame | ImageBitmap> {
  if (!("codedWidth" in frame) || frame.format === null) return scaled(frame);
  const size = frame.allocationSize();
  const reuse = spare.findIndex((b) => b.byteLength === size);
  const data = reuse === -1 ? new ArrayBuffer(size) : spare.splice(reuse, 1)[0]!;
  const layout = await frame.copyTo(data);
  const rect = frame.visibleRect;
  return {
    data,
    init: {
      format: frame.format,
      codedWidth: frame.codedWidth,
      codedHeight: frame.codedHeight,
      timestamp: frame.timestamp,
      layout,
      ...(rect && { visibleRect: { x: rect.x, y: rect.y, width: rect.width, height: rect.height } }),
      displayWidth: frame.displayWidth,
      displayHeight: frame.displayHeight,
      colorSpace: frame.colorSpace.toJSON(),
    },
  };
}

function release(image: RawFrame | ImageBitmap): void {
  if (image instanceof ImageBitmap) image.close();
  else if (spare.length < SPARE_BUFFERS) spare.push(image.data);
}

function scaled(frame: VideoFrame | ImageBitmap): Promise<ImageBitmap> {
  if (!("codedWidth" in frame)) return Promise.resolve(frame);
  const w = frame.displayWidth;
  const h = frame.displayHeight;
  const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(w, h));
  return createImageBitmap(frame, {
    resizeWidth: Math.round(w * scale),
    resizeHeight: Math.round(h * scale),
    resizeQuality: "low",
  });
}

/** Every press whose nearest frame has a frame after it (or that waited PRESS_WAIT_MS) gets its frames kept. */
function settle(latest: number): void {
  presses = presses.filter((press) => {
    const nearest = nearestFrame(press.at);
    if (nearest === -1) return false;
    if (nearest === buffer.length - 1 && latest - press.at < PRESS_WAIT_MS) return true;
    choose(press.tap, nearest);
    return false;
  });
}

function choose(tap: string, nearest: number): void {
  const chosen = [nearest - 1, nearest, nearest + 1]
    .map((index, frame) => ({ frame, source: buffer[index] }))
    .filter((c): c is { frame: number; source: BufferedFrame } => c.source !== undefined)
    // Taken now (the frames may leave the buffer, and their memory be used again, before the encoding ends): a bitmap
    // drawn, a raw frame made a VideoFrame (which copies its pixels).
    .map(({ frame, source }) => ({
      frame,
      image:
        source.image instanceof ImageBitmap
          ? drawn(source.image)
          : new VideoFrame(source.image.data, source.image.init),
    }));
  void Promise.all(chosen.map(async ({ frame, image }) => ({ frame, blob: await jpeg(image) }))).then(
    (frames) => scope.postMessage({ type: "kept", tap, frames } satisfies WorkerOut),
    () => undefined,
  );
}

/** A chosen frame as JPEG: a raw frame converted and scaled first. */
async function jpeg(image: OffscreenCanvas | VideoFrame): Promise<Blob> {
  if (image instanceof OffscreenCanvas) return image.convertToBlob(JPEG);
  let bitmap: ImageBitmap;
  try {
    bitmap = await scaled(image);
  } finally {
    image.close();
  }
  const canvas = drawn(bitmap);
  bitmap.close();
  return canvas.convertToBlob(JPEG);
}

/** The index of the buffered frame nearest `at` (-1: none). */
function nearestFrame(at: number): number {
  let nearest = -1;
  for (let i = 0; i < buffer.length; i += 1) {
    if (nearest === -1 || Math.abs(buffer[i]!.at - at) < Math.abs(buffer[nearest]!.at - at)) nearest = i;
  }
  return nearest;
}

function drawn(bitmap: ImageBitmap): OffscreenCanvas {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext("2d")!.drawImage(bitmap, 0, 0);
  return canvas;
}
