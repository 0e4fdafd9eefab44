/**
 * Debian's Chromium, as every browser-driving script here starts it (e2e tests, Lighthouse). As root it needs
 * --no-sandbox; the rest keep it from calling Google's services, so every request it makes is ours.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * The browser tests' Chromium: Debian's headless shell (package `chromium-headless-shell`, built from the same
 * Chromium source as `chromium`), the engine without the full browser's window and compositor machinery. On this
 * 2-core machine it took about 40 % less CPU than `chromium` for the same browser file (registration.test.ts:
 * 20 s against 35 s), and the whole browser suite passes on it, the fake cameras included. The benchmarks keep
 * the full browser (CHROMIUM_PATH): their figures are a phone's.
 */
export const TEST_CHROMIUM_PATH = process.env.TEST_CHROMIUM_PATH || "/usr/lib/chromium/chromium-headless-shell";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Chromium's flags for a camera that plays `video` (a .y4m file) and is allowed without asking: the bib desk's QR
 * test, Målfoto's test and its benchmark.
 * @param {string} video
 */
export const fakeCameraArgs = (video) => [
  ...CHROMIUM_ARGS,
  "--use-fake-ui-for-media-stream",
  "--use-fake-device-for-media-stream",
  `--use-file-for-fake-video-capture=${video}`,
];
