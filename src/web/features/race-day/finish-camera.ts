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
 *   posts the press to the worker. The page's main thread does no work per frame (finish-camera-worker.ts copies
 *   each frame into the rolling buffer, chooses a press's frames, scales them and encodes them as JPEG on its own
 *   thread):
 *   - In Chromium (`MediaStreamTrackProcessor`): the camera track's frame stream is transferred to the worker once,
 *     and Chromium delivers each frame there without this thread. The video element only shows the preview (the
 *     compositor draws it). (A frame callback per frame made this thread run a rendering step 30 times a second,
 *     and a press waited behind one: bench/finish-photos.mjs.) Each frame's moment is its capture moment; the page
 *     asks for CALIBRATION_FRAMES frame callbacks when the camera starts, whose `captureTime` puts the camera's clock
 *     on the page's clock exactly (the worker's `PageClock`).
 *   - Elsewhere (a browser with frame callbacks but no `MediaStreamTrackProcessor`, or one that cannot transfer the
 *     stream): each frame callback hands the frame the video shows to the worker as a `VideoFrame` (transferred, not
 *     copied) with its presentation time; without `VideoFrame`, a scaled copy made here. (Copying each frame here
 *     with createImageBitmap took 39% of a slowed phone's main thread.)
 * - The frame kept for a press is the buffered frame whose moment (above) is nearest `pressedAt` (both on the page's
 *   performance clock), chosen once a frame after it has arrived (so 'after' exists); a press older than the
 *   buffer keeps what the buffer has.
 * - Memory is bounded: the worker's buffer (BUFFER_FRAMES frames; a bitmap is closed when it leaves), at most a few
 *   frames waiting to be copied (more are let go at once); a press waits at most PRESS_WAIT_MS for its next frame.
 * - Stopping ends the worker: a press whose photos were still being chosen or encoded keeps none; its tap is queued.
 * Failure cases: encoding or storing a photo fails (the phone is out of storage): the photo is lost, never the tap.
 */
import { PHOTO_LONG_SIDE } from "../../../shared/finish-photos";
import type { WorkerIn, WorkerOut } from "./finish-camera-worker";

export type CameraState =
  { kind: "off" } | { kind: "starting" } | { kind: "on" } | { kind: "unavailable"; reason: string };

/** What a press keeps: frames 0 before, 1 nearest, 2 after (fewer when the buffer had fewer). */
export interface KeptPhoto {
  tap: string;
  frames: { frame: number; blob: Blob }[];
}

type VideoWithFrames = HTMLVideoElement & {
  requestVideoFrameCallback?: (
    cb: (now: number, meta: { presentationTime?: number; captureTime?: number }) => void,
  ) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/** Chromium's processor of a camera track into a stream of `VideoFrame`s (not in TypeScript's DOM types). */
type TrackProcessor = new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<VideoFrame> };

/** Frame callbacks asked for when the camera starts on the stream path, for their capture moments (module comment). */
const CALIBRATION_FRAMES = 5;

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
  private worker: Worker | null = null;
  private handle: number | null = null;
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
    if (
      !navigator.mediaDevices?.getUserMedia ||
      !this.video.requestVideoFrameCallback ||
      typeof Worker !== "function" ||
      typeof OffscreenCanvas !== "function"
    ) {
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
      const worker = new Worker(new URL("./finish-camera-worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = (event: MessageEvent<WorkerOut>) => {
        if (this.worker === worker) this.onKept({ tap: event.data.tap, frames: event.data.frames });
      };
      this.worker = worker;
      this.video.muted = true;
      this.video.playsInline = true;
      this.video.srcObject = stream;
      await this.video.play();
      this.set({ kind: "on" });
      if (this.sendStream(worker, stream)) this.calibrate(CALIBRATION_FRAMES);
      else this.next();
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
    // The worker lets its frames go and ends; a photo it is still encoding is not kept.
    this.worker?.postMessage({ type: "stop" } satisfies WorkerIn);
    this.worker = null;
    if (this.state.kind !== "unavailable") this.set({ kind: "off" });
  }

  /** A press at `pressedAt` (performance clock): its frames are kept from the next frame on. */
  keep(tap: string, pressedAt: number): void {
    if (this.state.kind !== "on") return;
    this.worker?.postMessage({ type: "press", tap, at: pressedAt } satisfies WorkerIn);
  }

  private set(state: CameraState): void {
    this.state = state;
    for (const l of this.listeners) l(state);
  }

  /**
   * The stream path (module comment): the camera track's frames, as a stream, to the worker. False when this browser
   * has no processor or cannot transfer its stream (the caller then uses frame callbacks).
   */
  private sendStream(worker: Worker, stream: MediaStream): boolean {
    const Processor = (globalThis as { MediaStreamTrackProcessor?: TrackProcessor }).MediaStreamTrackProcessor;
    const track = stream.getVideoTracks()[0];
    if (typeof Processor !== "function" || !track) return false;
    let frames: ReadableStream<VideoFrame>;
    try {
      frames = new Processor({ track }).readable;
    } catch {
      return false;
    }
    try {
      worker.postMessage({ type: "camera", frames, timeOrigin: performance.timeOrigin } satisfies WorkerIn, [frames]);
      return true;
    } catch {
      // Not transferable here: the processor lets the track go.
      void frames.cancel().catch(() => undefined);
      return false;
    }
  }

  /** `left` more frame callbacks, each frame's capture moment to the worker (its clock); then none. */
  private calibrate(left: number): void {
    if (left === 0) return;
    this.handle = this.video.requestVideoFrameCallback!((_now, meta) => {
      this.handle = null;
      if (!this.stream || meta.captureTime === undefined) return;
      this.worker?.postMessage({ type: "captured", at: meta.captureTime } satisfies WorkerIn);
      this.calibrate(left - 1);
    });
  }

  private next(): void {
    this.handle = this.video.requestVideoFrameCallback!((now, meta) => {
      this.handle = null;
      if (!this.stream) return;
      this.onFrame(meta.presentationTime ?? now);
      this.next();
    });
  }

  /**
   * The frame the video shows now, to the worker: as a VideoFrame (a reference to the camera's frame, no pixels
   * copied on this thread), transferred. A browser without VideoFrame copies it here, scaled, as before.
   */
  private onFrame(at: number): void {
    const worker = this.worker;
    const { videoWidth: w, videoHeight: h } = this.video;
    if (!worker || w === 0 || h === 0) return;
    if (typeof VideoFrame === "function") {
      let frame: VideoFrame;
      try {
        frame = new VideoFrame(this.video);
      } catch {
        return;
      }
      worker.postMessage({ type: "frame", at, frame } satisfies WorkerIn, [frame]);
      return;
    }
    const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(w, h));
    void createImageBitmap(this.video, {
      resizeWidth: Math.round(w * scale),
      resizeHeight: Math.round(h * scale),
      resizeQuality: "low",
    }).then(
      (bitmap) => {
        if (this.worker === worker)
          worker.postMessage({ type: "frame", at, frame: bitmap } satisfies WorkerIn, [bitmap]);
        else bitmap.close();
      },
      () => undefined,
    );
  }
}
