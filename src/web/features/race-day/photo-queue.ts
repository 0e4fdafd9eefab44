/**
 * Målfoto's queue on the phone (issue 44): the JPEGs a press kept (finish-camera.ts) wait here, in IndexedDB, until
 * the server has them. Never in the tap queue: that is one localStorage string per race (about 5 MB for the whole
 * site), which sixty taps of three JPEGs each would overflow, and a failed write there would lose taps.
 *
 * One IndexedDB database (`loppet-malfoto`), one store of frames keyed `{race}|{tap}|{frame}`, each with its press
 * moment. Sending (`sendPhotos`), per race, oldest press first:
 * - only a frame whose tap has left the tap queue (the race has it, or it was taken out): a photo never goes
 *   before its tap, and never holds one back: the round stops as soon as the race's tap queue has anything unsent
 *   that is not refused (a refused tap waits for a person), so the taps go first whenever both wait;
 * - PUT /admin/api/races/photo/{race}/{tap}/{frame}: 2xx, and a 4xx that no retry changes (the tap is not the
 *   race's, the photos were deleted, the race's storage is full, the season has no Målfoto), take it out; no network,
 *   401/403 (the sign-in), 408, 429 and 5xx keep it and end the round;
 * - one sender per race across tabs (a Web Lock); the server stores a frame sent twice once anyway.
 * A frame the phone cannot store (IndexedDB full or missing) is lost; the tap never is.
 */
import { errorAnswerOf } from "../../../shared/api-answers";
import { photoUrl } from "../../../shared/finish-photos";
import { ApiError, apiResponse } from "../../lib/api";
import { deviceId } from "../../lib/device-id";

const DB_NAME = "loppet-malfoto";
const STORE = "frames";

export interface QueuedFrame {
  key: string;
  race: string;
  tap: string;
  frame: number;
  /** The press (epoch ms): frames go oldest first. */
  at: number;
  device: string;
  blob: Blob;
}

let opened: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "key" });
      store.createIndex("race", "race");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB"));
  }).catch((err: unknown) => {
    opened = null;
    throw err;
  });
  return opened;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB"));
  });
}

const listeners = new Set<() => void>();

/** Hears every change of the queue (the race screen's count). */
export function onPhotoQueue(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  for (const l of listeners) l();
}

/** The frames of one press, into the queue. */
export async function queuePhoto(
  race: string,
  tap: string,
  at: number,
  frames: readonly { frame: number; blob: Blob }[],
): Promise<void> {
  const db = await database();
  const tx = db.transaction(STORE, "readwrite");
  const store = tx.objectStore(STORE);
  const device = deviceId();
  for (const { frame, blob } of frames)
    store.put({ key: `${race}|${tap}|${frame}`, race, tap, frame, at, device, blob });
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB"));
  });
  changed();
}

/** The race's waiting frames, oldest press first. */
export async function queuedPhotos(race: string): Promise<QueuedFrame[]> {
  const db = await database();
  const all = await done(
    db.transaction(STORE).objectStore(STORE).index("race").getAll(race) as IDBRequest<QueuedFrame[]>,
  );
  return all.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
}

/** How many of the race's frames wait (counted in the index: no frame is read). */
export async function countPhotos(race: string): Promise<number> {
  const db = await database();
  return done(db.transaction(STORE).objectStore(STORE).index("race").count(race));
}

async function remove(key: string): Promise<void> {
  const db = await database();
  await done(db.transaction(STORE, "readwrite").objectStore(STORE).delete(key));
  changed();
}

/** Every waiting frame of the race out ('Radera målfoton' on this phone). */
export async function dropRacePhotos(race: string): Promise<void> {
  for (const frame of await queuedPhotos(race)) await remove(frame.key);
}

/** An answer no retry changes: the frame leaves the queue. */
function final(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

export interface PhotoSendHooks {
  /** Whether the race's tap queue has this tap unsent (its photo waits). */
  tapQueued: (tap: string) => boolean;
  /** Whether the race's tap queue has anything unsent (the round yields to the taps). */
  tapsWaiting: () => boolean;
  /** A frame the server refused for good, with its words. */
  onRefused?: (message: string) => void;
}

/** One round of sending the race's frames (module comment); answers how many the server took. */
export async function sendPhotos(race: string, hooks: PhotoSendHooks): Promise<number> {
  const round = async () => {
    let sent = 0;
    for (const frame of await queuedPhotos(race)) {
      if (hooks.tapsWaiting()) break;
      if (hooks.tapQueued(frame.tap)) continue;
      let status: number;
      try {
        const res = await apiResponse(
          `${photoUrl(race, frame.tap, frame.frame)}?device=${encodeURIComponent(frame.device)}`,
          {
            method: "PUT",
            headers: { "content-type": "image/jpeg" },
            body: frame.blob,
            signal: AbortSignal.timeout(30_000),
          },
        );
        status = res.status;
        // The answer is read to its end either way: left unread, the timeout above aborted it 30 s later (the
        // benchmark's log showed every stored frame's request as failed then).
        const body = errorAnswerOf(await res.json().catch(() => null));
        if (final(status) && body?.error) hooks.onRefused?.(body.error);
      } catch (err) {
        status = err instanceof ApiError ? err.status : 0;
      }
      if ((status >= 200 && status < 300) || final(status)) {
        await remove(frame.key);
        if (status < 300) sent += 1;
        continue;
      }
      break;
    }
    return sent;
  };
  const locks = (navigator as { locks?: LockManager }).locks;
  if (!locks) return round();
  return (await locks.request(`malfoto:${race}`, { ifAvailable: true }, (lock) => (lock ? round() : 0))) ?? 0;
}
