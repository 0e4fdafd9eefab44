/**
 * Throttles each service worker of a Chromium before its first script runs, so that none of the worker's own
 * fetches (an install's precache fill among them) goes unthrottled: bench/race-screen-load.mjs.
 *
 * - Only the per-rule form of DevTools' network setting reaches a worker's own fetches, and Chromium 150 applies it
 *   only once the starting worker's DevTools agent is connected. Sent to the worker's target before that (the target
 *   exists from the fetch of the worker's script on), it is answered but changes nothing: in traces of the race
 *   screen bench, every round whose setting came that early ran the whole install unthrottled (the offline line
 *   about a second after the tiles instead of about four).
 * - So each new worker is attached to as it is created (auto-attach, waiting on start), and its debugger is told to
 *   stop it before its main script; the setting is sent while it stands there, and then it goes on. Waiting on start
 *   alone does not hold it: Playwright attaches to every worker too and lets it run at once. Whether the stop came
 *   before the main script is recorded per worker (`beforeScript`).
 * - All of this runs on a thread of its own, over a DevTools connection of its own (the browser's debugging port), so
 *   that its messages do not wait for the benchmark's event loop, which carries Playwright's connection and the
 *   pages' traffic.
 * - The worker's script itself is fetched by the browser before the worker starts, outside this setting and the
 *   page's.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/**
 * Starts throttling with `rule` (the parameters of Network.emulateNetworkConditionsByRule) every service worker that
 * starts from now on in the browser whose debugging port is `port`. Answers `of(browserContextId)`, each worker of
 * that browser context so far, `{ browserContextId, url, beforeScript, throttled, pause }` (`beforeScript`: the
 * debugger stopped it before its main script; `pause`: why and where it stopped), and `stop()`.
 */
export async function throttleServiceWorkers(port, rule) {
  const thread = new Worker(new URL(import.meta.url), { workerData: { port, rule } });
  const asked = new Map();
  let lastId = 0;
  let failed = null;
  const started = new Promise((resolve, reject) => {
    thread.on("message", (message) => {
      if (message.type === "started") resolve();
      else if (message.type === "workers") {
        asked.get(message.id)?.resolve(message.workers);
        asked.delete(message.id);
      }
    });
    thread.on("error", (err) => {
      failed = err;
      reject(err);
      for (const { reject: fail } of asked.values()) fail(err);
      asked.clear();
    });
  });
  await started;
  return {
    of: (browserContextId) => {
      if (failed) return Promise.reject(failed);
      const id = ++lastId;
      thread.postMessage({ type: "of", id, browserContextId });
      return new Promise((resolve, reject) => asked.set(id, { resolve, reject }));
    },
    stop: () => thread.terminate(),
  };
}

/** The thread: one DevTools connection, auto-attached to every service worker. */
async function serve({ port, rule }) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error(`DevTools: ${webSocketDebuggerUrl}`)), { once: true });
  });
  let lastId = 0;
  const answers = new Map();
  const send = (method, params, sessionId) => {
    const id = ++lastId;
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => answers.set(id, { method, resolve, reject }));
  };
  const workers = [];
  const pauses = new Map();
  const scriptUrls = new Map();
  /**
   * Whether a stop of the worker at `url` came before its main script ran: at the instrumentation breakpoint, or at
   * the first statement of the script's top-level code.
   */
  const beforeMainScript = async (sessionId, url, { reason, data, callFrames }) => {
    if (reason === "instrumentation") return data?.url === url;
    const [top, ...below] = callFrames;
    const scriptId = top?.location.scriptId;
    if (below.length > 0 || scriptId === undefined || scriptUrls.get(sessionId)?.get(scriptId) !== url) return false;
    if (!top.scopeChain.every((scope) => scope.type === "global" || scope.type === "script")) return false;
    const { locations } = await send(
      "Debugger.getPossibleBreakpoints",
      { start: { scriptId, lineNumber: 0, columnNumber: 0 }, end: top.location, restrictToFunction: true },
      sessionId,
    );
    return locations.length === 0;
  };
  const throttle = async ({ sessionId, targetInfo, waitingForDebugger }) => {
    const { browserContextId, url } = targetInfo;
    const worker = { browserContextId, url, beforeScript: false, throttled: false, pause: null };
    workers.push(worker);
    if (waitingForDebugger) {
      const paused = new Promise((resolve) => pauses.set(sessionId, resolve));
      scriptUrls.set(sessionId, new Map());
      // Sent together, in this order: a stop before the main script, and (should the script be running already) a
      // stop at its next statement. A waiting worker runs on anyone's first runIfWaitingForDebugger.
      for (const [method, params] of [
        ["Debugger.enable", {}],
        ["Debugger.setInstrumentationBreakpoint", { instrumentation: "beforeScriptExecution" }],
        ["Debugger.pause", {}],
        ["Runtime.runIfWaitingForDebugger", {}],
      ])
        send(method, params, sessionId).catch(() => {});
      const stop = await paused;
      pauses.delete(sessionId);
      await send("Network.emulateNetworkConditionsByRule", rule, sessionId);
      worker.throttled = true;
      const at = stop.callFrames[0]?.location;
      worker.pause = `${stop.reason} at ${at?.lineNumber}:${at?.columnNumber}, ${stop.callFrames.length} frames`;
      worker.beforeScript = await beforeMainScript(sessionId, url, stop).catch(() => false);
      scriptUrls.delete(sessionId);
      // Turning the debugger off lets the worker go on.
      await send("Debugger.disable", {}, sessionId);
    } else {
      await send("Network.emulateNetworkConditionsByRule", rule, sessionId);
      worker.throttled = true;
    }
  };
  ws.addEventListener("message", ({ data }) => {
    const message = JSON.parse(data);
    if (message.id !== undefined) {
      const answer = answers.get(message.id);
      answers.delete(message.id);
      if (message.error) answer?.reject(new Error(`${answer.method}: ${message.error.message}`));
      else answer?.resolve(message.result);
    } else if (message.method === "Target.attachedToTarget")
      throttle(message.params).catch(() => {}); // the worker is gone
    else if (message.method === "Debugger.paused") pauses.get(message.sessionId)?.(message.params);
    else if (message.method === "Debugger.scriptParsed")
      scriptUrls.get(message.sessionId)?.set(message.params.scriptId, message.params.url);
  });
  await send("Target.setAutoAttach", {
    autoAttach: true,
    waitForDebuggerOnStart: true,
    flatten: true,
    filter: [{ type: "service_worker", exclude: false }, { exclude: true }],
  });
  parentPort.on("message", ({ type, id, browserContextId }) => {
    if (type !== "of") return;
    const mine = workers.filter((w) => w.browserContextId === browserContextId);
    parentPort.postMessage({ type: "workers", id, workers: mine });
  });
  parentPort.postMessage({ type: "started" });
}

if (!isMainThread && workerData?.rule) await serve(workerData);
