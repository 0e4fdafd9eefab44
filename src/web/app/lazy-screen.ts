/**
 * A lazy screen (React.lazy) whose code can also be loaded ahead of the first render (`preload`): a screen whose
 * module is already in renders at once instead of suspending. Each suspension shows the nearest fallback, and
 * React then holds the content back until 300 ms after that fallback appeared (its guard against flicker): on a
 * deep link into the race screen that was two fallbacks, and half a second on a slow phone, for code that was
 * already downloaded (the admin start pages name it: scripts/service-workers.mjs).
 */
import { createElement, lazy, useState, type ComponentType } from "react";

export interface LazyScreen<P> {
  (props: P): ReturnType<typeof createElement>;
  /** Loads the screen's code; once it is in, the screen renders without suspending. */
  preload: () => Promise<void>;
}

export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
    }));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Screen(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the module later would remount the screen.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  Screen.preload = preload;
  return Screen;
}
