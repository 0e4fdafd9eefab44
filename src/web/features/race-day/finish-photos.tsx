/**
 * Målfoto on the race screen (issue 44): the switch (remembered per race on this phone; absent when the season has
 * no Målfoto), the camera's small preview, the photos waiting on the phone, and the photos shown where a time is
 * decided (the slot dialog, 'Att granska', the log's rows about a tap): a strip of each tap's nearest frame, tapped
 * to enlarge all three (two fingers zoom one: `ZoomablePhoto`). The camera is finish-camera.ts, the queue photo-queue.ts; the race says which taps have photos
 * (`photo-{tap}` records on the socket), so every phone shows another phone's photos.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { photoUrl } from "../../../shared/finish-photos";
import type { PhotosDeleted } from "../../../shared/race-answers";
import type { PhotoRecord } from "../../../shared/race-protocol";
import { SEASON } from "../../../shared/season";
import { useMutation } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { api } from "../../lib/api";
import { raceDayUrl } from "./api/race-day-url";
import { useRapidPart } from "./api/rapid-timing";
import { messageOf } from "./race-alerts";
import type { RapidRecords } from "./apply-race-events";
import { FinishCamera, type CameraState } from "./finish-camera";
import { NO_ZOOM, pan, pinch, type Point, type Zoom } from "./photo-zoom";
import { countPhotos, dropRacePhotos, onPhotoQueue, queuePhoto, sendPhotos } from "./photo-queue";
import type { RaceQueue } from "./tap-queue-provider";
import { knownItems } from "./tap-queue";
import { useAdminRole } from "../../lib/config/get-config";

const SWITCH_KEY = "race-day:malfoto:";
const SEND_EVERY_MS = 5_000;

function storedSwitch(raceId: string): boolean {
  try {
    return window.localStorage.getItem(SWITCH_KEY + raceId) === "1";
  } catch {
    return false;
  }
}

function storeSwitch(raceId: string, on: boolean): void {
  try {
    if (on) window.localStorage.setItem(SWITCH_KEY + raceId, "1");
    else window.localStorage.removeItem(SWITCH_KEY + raceId);
  } catch {
    // No storage: the switch lasts as long as the page.
  }
}

export interface FinishPhotos {
  enabled: boolean;
  state: CameraState;
  setEnabled: (on: boolean) => void;
  /** After the tap is queued: keep the frames nearest `pressedAt` (performance clock) for tap `tap`. */
  keep: (tap: string, pressedAt: number) => void;
  attachVideo: (video: HTMLVideoElement | null) => void;
}

/** The camera, the switch and the sending of this race's photos (module comment). */
export function useFinishPhotos(raceId: string, queue: RaceQueue, onError: (message: string) => void): FinishPhotos {
  const [enabled, setEnabledState] = useState(() => SEASON.finishPhotos && storedSwitch(raceId));
  const [state, setState] = useState<CameraState>({ kind: "off" });
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const camera = useRef<FinishCamera | null>(null);
  // The newest queue and error callback, for the sending loop and the camera's callback (kept after each render).
  const taps = useRef(queue.queue);
  const report = useRef(onError);
  useEffect(() => {
    taps.current = queue.queue;
    report.current = onError;
  });
  const onResult = queue.onResult;

  useEffect(() => {
    if (!video || !enabled) return;
    const cam = new FinishCamera(video, ({ tap, frames }) => {
      queuePhoto(raceId, tap, Date.now(), frames).catch(() =>
        report.current("Målfotot kunde inte sparas i telefonen (minnet är fullt). Tiden är sparad."),
      );
    });
    camera.current = cam;
    const stop = cam.subscribe(setState);
    void cam.start();
    return () => {
      stop();
      cam.stop();
      camera.current = null;
      setState({ kind: "off" });
    };
  }, [video, enabled, raceId]);

  // Sending: every few seconds, when the network comes back and whenever a tap of this race reached the server.
  useEffect(() => {
    if (!SEASON.finishPhotos) return;
    let running = false;
    const send = () => {
      if (running) return;
      running = true;
      const unsent = () => knownItems(taps.current);
      sendPhotos(raceId, {
        tapQueued: (tap) => unsent().some((i) => i.tap === tap),
        // A refused tap waits for a person, not for the network: it holds no photo back.
        tapsWaiting: () => unsent().some((i) => !i.refused),
        onRefused: (message) => report.current(`Målfoto: ${message}`),
      })
        .catch(() => 0)
        .finally(() => {
          running = false;
        });
    };
    const stopQueue = onPhotoQueue(send);
    const stopResults = onResult(() => send());
    window.addEventListener("online", send);
    const timer = setInterval(send, SEND_EVERY_MS);
    send();
    return () => {
      stopQueue();
      stopResults();
      window.removeEventListener("online", send);
      clearInterval(timer);
    };
  }, [raceId, onResult]);

  const setEnabled = useCallback(
    (on: boolean) => {
      storeSwitch(raceId, on);
      setEnabledState(on);
    },
    [raceId],
  );
  const keep = useCallback((tap: string, pressedAt: number) => camera.current?.keep(tap, pressedAt), []);
  return { enabled, state, setEnabled, keep, attachVideo: setVideo };
}

const STATE_TEXT: Record<CameraState["kind"], string> = {
  off: "Av",
  starting: "Startar kameran …",
  on: "Kameran är på: varje måltid får ett foto.",
  unavailable: "",
};

/** 'Radera målfoton': every photo of the race, on the server and waiting on this phone, after a confirmation. */
function DeletePhotos({ raceId, onDone }: { raceId: string; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: async () => {
      await dropRacePhotos(raceId);
      return api<PhotosDeleted>(raceDayUrl(["photos-delete", raceId]), { method: "POST", json: {} });
    },
    onSuccess: () => {
      setOpen(false);
      onDone("Målfotona är raderade.");
    },
  });
  return (
    <>
      <Button size="small" variant="text" onClick={() => setOpen(true)}>
        Radera målfoton
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Radera målfoton"
          description="Alla målfoton i loppet raderas, på alla telefoner. Det går inte att ångra."
        >
          {remove.error && (
            <p className="alert alert-error" role="alert">
              {messageOf(remove.error)}
            </p>
          )}
          <div className="race-form-actions">
            <Button variant="primary" loading={remove.isPending} onClick={() => remove.mutate()}>
              Radera målfoton
            </Button>
            <Button variant="text" onClick={() => setOpen(false)}>
              Avbryt
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The waiting count is read again this long after a change of the queue (one read for a press's changes). */
const COUNT_AFTER_MS = 500;

/**
 * How many of the race's frames wait on this phone. Kept here, not in the race screen: the count changes several
 * times a press (stored, then each frame sent), and each change re-rendering the whole race screen cost a slowed
 * phone's main thread time a next press waited behind. For the same reason it is read once for the changes of
 * COUNT_AFTER_MS (a press's three frames stored and sent), not once for each: a text that changes moves the screen's
 * layout, which the next touch then waits for.
 */
function useWaitingPhotos(raceId: string): number {
  const [waiting, setWaiting] = useState(0);
  useEffect(() => {
    if (!SEASON.finishPhotos) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const count = () =>
      void countPhotos(raceId).then(
        (n) => current && setWaiting(n),
        () => current && setWaiting(0),
      );
    count();
    const stop = onPhotoQueue(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        count();
      }, COUNT_AFTER_MS);
    });
    return () => {
      current = false;
      clearTimeout(timer);
      stop();
    };
  }, [raceId]);
  return waiting;
}

/** The switch, the preview and what waits on the phone; nothing when the season has no Målfoto. */
export function CameraSwitch({
  raceId,
  photos,
  onInfo,
}: {
  raceId: string;
  photos: FinishPhotos;
  onInfo: (message: string) => void;
}) {
  // 'Radera målfoton' is an organiser's (the Worker refuses a volunteer: middleware/route-roles.ts).
  const organiser = useAdminRole() === "organiser";
  const waiting = useWaitingPhotos(raceId);
  // 'Radera målfoton' is offered while the race has photos, on the server or waiting on this phone.
  const hasPhotos = useRapidPart(raceId, anyPhotos) ?? false;
  if (!SEASON.finishPhotos) return null;
  const { enabled, state, attachVideo } = photos;
  return (
    <section className="finish-camera" aria-label="Målfoto">
      <label className="finish-camera-switch">
        <input type="checkbox" checked={enabled} onChange={(e) => photos.setEnabled(e.target.checked)} /> Målfoto
      </label>
      <p className="finish-camera-state" role="status">
        {enabled && (state.kind === "unavailable" ? state.reason : STATE_TEXT[state.kind])}
        {waiting > 0 && ` Ej skickade målfoton: ${waiting}`}
      </p>
      {organiser && (hasPhotos || waiting > 0) && <DeletePhotos raceId={raceId} onDone={onInfo} />}
      {enabled && (
        <video
          ref={attachVideo}
          className="finish-camera-preview"
          data-testid="finish-camera"
          muted
          playsInline
          aria-label="Kamerans bild"
        />
      )}
    </section>
  );
}

const anyPhotos = (rapid: RapidRecords) => (rapid.photos ?? []).some((p) => !p.removed);

/** The photo records of these taps that still have frames. */
export function photosOf(rapid: RapidRecords, taps: readonly string[]): PhotoRecord[] {
  const wanted = new Set(taps);
  return (rapid.photos ?? []).filter((p) => wanted.has(p.id) && !p.removed && p.frames.length > 0);
}

const NO_PHOTOS: readonly PhotoRecord[] = [];

/**
 * The photo records of these taps, from the race's records as the socket brings them. The component renders again
 * only when these change: not for another tap's photo, nor for a tap (the race screen itself reads no photos, so a
 * press's three photo records re-render only where they are shown).
 */
export function useTapPhotos(raceId: string, taps: readonly string[]): readonly PhotoRecord[] {
  const key = JSON.stringify(taps);
  const select = useMemo(() => {
    const wanted = JSON.parse(key) as string[];
    return (rapid: RapidRecords) => photosOf(rapid, wanted);
  }, [key]);
  return useRapidPart(raceId, select) ?? NO_PHOTOS;
}

/** `PhotoStrip` of these taps' photos (`useTapPhotos`). */
export function TapPhotoStrip({
  raceId,
  taps,
  onViewed,
}: {
  raceId: string;
  taps: readonly string[];
  onViewed?: () => void;
}) {
  return <PhotoStrip raceId={raceId} photos={useTapPhotos(raceId, taps)} onViewed={onViewed} />;
}

/** Each tap's nearest frame as a thumbnail; a tap enlarges its frames (zoom with two fingers). */
export function PhotoStrip({
  raceId,
  photos,
  onViewed,
}: {
  raceId: string;
  photos: readonly PhotoRecord[];
  /** A photo was enlarged: the decision that follows is made from it. */
  onViewed?: () => void;
}) {
  // By tap id: the record shown is the latest (a frame that arrives while it is open shows too).
  const [openId, setOpen] = useState<string | null>(null);
  const open = photos.find((p) => p.id === openId) ?? null;
  if (photos.length === 0) return null;
  const middle = (p: PhotoRecord) => (p.frames.includes(1) ? 1 : p.frames[0]!);
  return (
    <>
      <div className="photo-strip" aria-label="Målfoton">
        {photos.map((p) => (
          <button
            key={p.id}
            type="button"
            className="photo-thumb"
            onClick={() => {
              setOpen(p.id);
              onViewed?.();
            }}
          >
            <PhotoImage src={photoUrl(raceId, p.id, middle(p))} alt="Målfoto" />
          </button>
        ))}
      </div>
      <Dialog open={open !== null} onOpenChange={(o) => !o && setOpen(null)}>
        <DialogContent title="Målfoto">
          <div className="photo-large">
            {open?.frames.map((frame) => (
              // Each frame says which it is, so the volunteer reads the bib on the one nearest the press.
              <figure key={frame} className="photo-frame" data-nearest={frame === 1 ? "" : undefined}>
                <ZoomablePhoto
                  src={photoUrl(raceId, open.id, frame)}
                  alt={["Bilden före", "Bilden närmast trycket", "Bilden efter"][frame] ?? "Målfoto"}
                />
                <figcaption>{["Före", "Närmast trycket", "Efter"][frame]}</figcaption>
              </figure>
            ))}
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * One enlarged frame that two fingers zoom (photo-zoom.ts: within 1–5×, the image always covering its box) and one
 * finger pans once zoomed; unzoomed, one finger scrolls the frames as the page would. A double tap (or click) goes
 * back to the whole frame. Pointer events on a box with `touch-action: none`, so the browser neither zooms the page
 * nor takes the gesture over. A finger lifted or added mid-gesture starts the gesture again from where it is.
 */
function ZoomablePhoto({ src, alt }: { src: string; alt: string }) {
  const [zoom, setZoom] = useState<Zoom>(NO_ZOOM);
  const box = useRef<HTMLDivElement>(null);
  const current = useRef<Zoom>(NO_ZOOM);
  const pointers = useRef(new Map<number, Point>());
  // Where the gesture began: the zoom then and the fingers (box coordinates) then.
  const began = useRef<{ zoom: Zoom; points: Point[] } | null>(null);

  const apply = (next: Zoom) => {
    current.current = next;
    setZoom(next);
  };
  const at = (e: ReactPointerEvent): Point => {
    const rect = box.current!.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  const restart = () => {
    began.current =
      pointers.current.size > 0 ? { zoom: current.current, points: [...pointers.current.values()] } : null;
  };
  const size = () => ({ width: box.current!.clientWidth, height: box.current!.clientHeight });

  return (
    <div
      ref={box}
      className="photo-zoom"
      data-zoomed={zoom.scale > 1 ? "" : undefined}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        pointers.current.set(e.pointerId, at(e));
        restart();
      }}
      onPointerMove={(e) => {
        if (!pointers.current.has(e.pointerId) || !began.current) return;
        const previous = pointers.current.get(e.pointerId)!;
        const point = at(e);
        pointers.current.set(e.pointerId, point);
        const { zoom: start, points } = began.current;
        const now = [...pointers.current.values()];
        if (points.length >= 2 && now.length >= 2) {
          apply(pinch(start, [points[0]!, points[1]!], [now[0]!, now[1]!], size()));
        } else if (start.scale > 1) {
          apply(pan(start, point.x - points[0]!.x, point.y - points[0]!.y, size()));
        } else {
          // Unzoomed: one finger scrolls the frames, as it would without this box.
          box.current!.closest(".photo-large")?.scrollBy(0, previous.y - point.y);
        }
      }}
      onPointerUp={(e) => {
        pointers.current.delete(e.pointerId);
        restart();
      }}
      onPointerCancel={(e) => {
        pointers.current.delete(e.pointerId);
        restart();
      }}
      onDoubleClick={() => apply(NO_ZOOM)}
    >
      <PhotoImage
        src={src}
        alt={alt}
        draggable={false}
        style={{ transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }}
      />
    </div>
  );
}

/** Tries after a missing photo: 1, 2, 4 and 8 s. */
const PHOTO_RETRIES_MS = [1_000, 2_000, 4_000, 8_000];

/**
 * A photo as the admin route serves it, asked for again while it is missing. The race announces a frame before the
 * Worker has put it in R2 (src/worker/race-day/photo-routes.ts records first, so a refused frame is never stored):
 * a second phone that asks in that moment gets a 404, and the next try finds it.
 */
function PhotoImage(props: React.ImgHTMLAttributes<HTMLImageElement> & { src: string }) {
  const [attempt, setAttempt] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const wait = PHOTO_RETRIES_MS[attempt];
  return (
    <img
      {...props}
      key={attempt}
      onError={() => {
        if (wait === undefined) return;
        timer.current = setTimeout(() => setAttempt((n) => n + 1), wait);
      }}
    />
  );
}
