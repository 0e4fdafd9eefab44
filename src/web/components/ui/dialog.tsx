/**
 * Radix Dialog, wrapped and styled once. `DialogContent` always has a title (screen readers announce it) and a
 * close button; `side` turns it into a drawer sliding in from the left or right edge. Every dialog here is
 * controlled by `open`.
 *
 * Radix's code (ui/dialog-parts.tsx, about 10 kB packed) is not part of the page's first download: a dialog opens
 * on a tap, never before the screen is drawn, and on the race screen of a slowed phone those bytes kept the tiles
 * off the screen longer (bench/race-screen-load.mjs). Each `Dialog` starts loading it when it is first drawn
 * (closed), so it is in long before a finger gets there; the admin area's service worker precaches it with the
 * screens (scripts/service-workers.mjs), so a phone without signal opens its dialogs too.
 *
 * Failure: a dialog opened before the code has come, and whose code cannot be loaded (no signal, and the phone not
 * yet ready to work offline), stays closed: it tells its owner it closed (`onOpenChange(false)`), so the next tap
 * tries again.
 */
import { useEffect, useEffectEvent, useState, type ComponentProps } from "react";
import type { DialogContentProps } from "./dialog-parts";

export type { DialogContentProps };

type Parts = typeof import("./dialog-parts");

let parts: Parts | null = null;
let loading: Promise<Parts> | null = null;

/** Radix's part of the dialogs, once in; a failed load is tried again by the next call. */
function loadParts(): Promise<Parts> {
  loading ??= import("./dialog-parts").then(
    (module) => (parts = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The loaded parts, or null while they are on their way (loaded on the first render that lacks them). */
function useParts(wanted: boolean, failed: () => void = () => {}): Parts | null {
  const [loaded, setLoaded] = useState(parts);
  const onFailure = useEffectEvent(failed);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    loadParts().then(
      (module) => {
        if (live) setLoaded(module);
      },
      () => {
        if (live && wanted) onFailure();
      },
    );
    return () => {
      live = false;
    };
  }, [loaded, wanted]);
  return loaded;
}

/**
 * Radix's Dialog.Root, mounted once the dialog is first opened. A closed Radix dialog draws nothing, but its parts
 * still mount through Radix's Presence, whose layout effect sets state: a synchronous second render, and React then
 * runs all of the screen's effects before the browser may paint. A screen with several dialogs (the race screen has
 * seven) opened without that. Once opened it stays mounted, so closing it keeps Radix's behaviour (focus returned,
 * the closing animation).
 */
export function Dialog({ open, ...rest }: ComponentProps<Parts["Root"]>) {
  const [opened, setOpened] = useState(open === true);
  if (open === true && !opened) setOpened(true);
  const loaded = useParts(open === true, () => rest.onOpenChange?.(false));
  return opened && loaded ? <loaded.Root open={open} {...rest} /> : null;
}

/** Drawn inside an open `Dialog`, which is mounted only once the parts are in. */
export function DialogContent(props: DialogContentProps) {
  const loaded = useParts(true);
  return loaded ? <loaded.Content {...props} /> : null;
}
