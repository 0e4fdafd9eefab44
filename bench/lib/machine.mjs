/**
 * How busy this shared machine was over a stretch of a benchmark, from Linux's /proc (null where it lacks a file):
 *
 * - `load1mStart` / `load1mEnd`: the 1-minute load average as the stretch began and ended.
 * - `machineBusyPct`: the share of all cores' time spent running anything (100 = every core busy all along).
 * - `cpuPressurePct`: /proc/pressure/cpu "some": the share of the stretch in which at least one runnable task
 *   waited for a core (100 = somebody was always queued).
 * - `oursCpuMs` / `oursWaitMs`: the CPU time of this process and everything it started (the servers under test,
 *   the client), and how long their threads sat runnable but waiting for a core (/proc/<pid>/task/<tid>/schedstat).
 *   `oursWaitMs` is time the measured path may have spent doing nothing because other work held the cores.
 *
 * - `cpuMsByProcess`: `oursCpuMs` by process: `client` (this process: the benchmark's sockets and requests), each
 *   wrangler dev's two workerd processes, `runtime` (the Worker and its Durable Objects) and `proxy` (wrangler's
 *   proxy in front of it, which every request and socket frame passes), for the site (`site…`) and the echo
 *   (`echo…`, started from bench/echo/), and `other` (wrangler's Node processes, builds). Divided by a round's
 *   changes it says what each change cost each process, which a latency figure on a shared machine cannot.
 *
 * `clientDelays()` watches this process itself over a stretch: how late its event loop ran (p99 and max of
 * perf_hooks' event-loop delay, which also counts the time the process waited for a core) and its garbage
 * collections (count and summed pause).
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance, PerformanceObserver } from "node:perf_hooks";

/** Starts measuring; `end()` answers the figures above for the time since. */
export function machineLoad() {
  const began = snapshot();
  return { end: () => difference(began, snapshot()) };
}

/** One round's `{...machineLoad().end(), client: clientDelays().end()}` in a line of Swedish. */
export function machineLine(m) {
  return (
    `belastning ${m.load1mStart}→${m.load1mEnd}, CPU-tryck ${m.cpuPressurePct ?? "–"} %, ` +
    `våra trådar väntade ${m.oursWaitMs ?? "–"} ms på kärna (CPU ${m.oursCpuMs ?? "–"} ms), ` +
    `klientens event-loop max ${m.client.eventLoopDelayMaxMs} ms`
  );
}

/** Starts watching this process; `end()` answers `{eventLoopDelayP99Ms, eventLoopDelayMaxMs, gcCount, gcMs}`. */
export function clientDelays() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let gcCount = 0;
  let gcMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcCount += 1;
      gcMs += entry.duration;
    }
  });
  gc.observe({ entryTypes: ["gc"] });
  return {
    end() {
      delay.disable();
      gc.disconnect();
      return {
        eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
        eventLoopDelayMaxMs: round(delay.max / 1e6),
        gcCount,
        gcMs: round(gcMs),
      };
    },
  };
}

function snapshot() {
  return {
    at: performance.now(),
    load1m: loadavg()[0],
    cpu: cpuTimes(),
    pressureUs: cpuPressureUs(),
    ours: ourThreads(),
  };
}

function difference(a, b) {
  const wallMs = b.at - a.at;
  const figures = {
    wallMs: round(wallMs),
    load1mStart: round2(a.load1m),
    load1mEnd: round2(b.load1m),
    machineBusyPct: null,
    cpuPressurePct: null,
    oursCpuMs: null,
    oursWaitMs: null,
    cpuMsByProcess: null,
  };
  if (a.cpu && b.cpu && b.cpu.total > a.cpu.total) {
    figures.machineBusyPct = round((100 * (b.cpu.busy - a.cpu.busy)) / (b.cpu.total - a.cpu.total));
  }
  if (a.pressureUs !== null && b.pressureUs !== null && wallMs > 0) {
    figures.cpuPressurePct = round((100 * (b.pressureUs - a.pressureUs)) / 1_000 / wallMs);
  }
  if (a.ours && b.ours) {
    let cpuNs = 0;
    let waitNs = 0;
    for (const [tid, end] of b.ours) {
      const start = a.ours.get(tid) ?? { cpuNs: 0, waitNs: 0 };
      cpuNs += Math.max(0, end.cpuNs - start.cpuNs);
      waitNs += Math.max(0, end.waitNs - start.waitNs);
    }
    figures.oursCpuMs = round(cpuNs / 1e6);
    figures.oursWaitMs = round(waitNs / 1e6);
    const byProcess = {};
    for (const [tid, end] of b.ours) {
      const start = a.ours.get(tid) ?? { cpuNs: 0 };
      byProcess[end.process] = (byProcess[end.process] ?? 0) + Math.max(0, end.cpuNs - start.cpuNs);
    }
    figures.cpuMsByProcess = Object.fromEntries(Object.entries(byProcess).map(([name, ns]) => [name, round(ns / 1e6)]));
  }
  return figures;
}

/** All cores' jiffies from /proc/stat: busy (not idle, not waiting for I/O) and total. */
function cpuTimes() {
  const line = readOrNull("/proc/stat")?.split("\n")[0];
  if (!line?.startsWith("cpu ")) return null;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

function cpuPressureUs() {
  const some = readOrNull("/proc/pressure/cpu")
    ?.split("\n")
    .find((l) => l.startsWith("some "));
  const total = some && /total=(\d+)/.exec(some);
  return total ? Number(total[1]) : null;
}

/** Every thread of this process and its descendants: CPU and run-queue wait so far, by thread id. */
function ourThreads() {
  const parents = new Map();
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    const stat = readOrNull(`/proc/${pid}/stat`);
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : NaN;
    if (Number.isInteger(ppid)) parents.set(pid, String(ppid));
  }
  const ours = new Set([String(process.pid)]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!ours.has(pid) && ours.has(ppid)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  const threads = new Map();
  for (const pid of ours) {
    const process = processName(pid, parents);
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const fields = readOrNull(`/proc/${pid}/task/${tid}/schedstat`)?.trim().split(" ").map(Number);
      if (fields?.length >= 2) threads.set(tid, { cpuNs: fields[0], waitNs: fields[1], process });
    }
  }
  return threads;
}

/** Which of `cpuMsByProcess`'s names a process of ours is (see the module comment). */
function processName(pid, parents) {
  if (pid === String(process.pid)) return "client";
  const command = commandLine(pid);
  if (!command.includes("workerd serve")) return "other";
  // wrangler dev starts the runtime on a port of its own choosing (":0") and its proxy on the one asked for.
  const role = command.includes("--socket-addr=entry=127.0.0.1:0 ") ? "Runtime" : "Proxy";
  let ancestor = parents.get(pid);
  for (let depth = 0; ancestor && depth < 4; depth++, ancestor = parents.get(ancestor)) {
    if (commandLine(ancestor).includes(`bench${path.sep}echo`)) return `echo${role}`;
  }
  return `site${role}`;
}

function commandLine(pid) {
  return (readOrNull(`/proc/${pid}/cmdline`) ?? "").replaceAll("\0", " ");
}

function readOrNull(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function round(n) {
  return Math.round(n * 10) / 10;
}

function round2(n) {
  return Math.round(n * 100) / 100;
}
