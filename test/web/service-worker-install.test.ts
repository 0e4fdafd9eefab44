/**
 * Getting the service worker installed on a phone whose signal comes and goes (install-loop.ts): an install that
 * failed for lack of signal is tried again as soon as the site answers, without a reload; one that failed while the
 * site answers waits longer each time, and a failure for lack of signal starts that over.
 */
import { describe, expect, it } from "vitest";
import { installUntilActive, MAX_PAUSE_MS, RETRY_MS, type InstallState } from "../../src/web/lib/install-loop";

/** A phone: each install attempt's outcome and each reachability answer in turn, and what the loop did. */
function phone(installs: boolean[], answers: boolean[]) {
  const log: string[] = [];
  const states: InstallState[] = [];
  const pauses: number[] = [];
  const ports = {
    install: async () => {
      const ok = installs.shift();
      if (ok === undefined) throw new Error("more attempts than the test expected");
      log.push(ok ? "install ok" : "install failed");
      if (!ok) throw new Error("failed");
    },
    reachable: async () => {
      const answer = answers.shift();
      if (answer === undefined) throw new Error("more questions than the test expected");
      log.push(answer ? "site answers" : "no answer");
      return answer;
    },
    pause: async (ms: number) => {
      pauses.push(ms);
      log.push(`pause ${ms}`);
    },
    report: (state: InstallState) => states.push(state),
  };
  return { ports, log, states, pauses, installs, answers };
}

describe("installUntilActive", () => {
  it("an install that works is one attempt, with no question asked", async () => {
    const p = phone([true], []);
    await installUntilActive(p.ports);
    expect(p.log).toEqual(["install ok"]);
    expect(p.states).toEqual(["installing", "active"]);
  });

  it("failed for lack of signal: asks every RETRY_MS until the site answers, then tries again at once", async () => {
    const p = phone([false, true], [false, false, false, true]);
    await installUntilActive(p.ports);
    expect(p.log).toEqual([
      "install failed",
      "no answer",
      `pause ${RETRY_MS}`,
      "no answer",
      `pause ${RETRY_MS}`,
      "no answer",
      `pause ${RETRY_MS}`,
      "site answers",
      "install ok",
    ]);
    expect(p.states).toEqual(["installing", "no-network", "installing", "active"]);
  });

  it("failed while the site answers: the pause doubles from RETRY_MS up to MAX_PAUSE_MS", async () => {
    const failures = 9;
    const p = phone([...Array<boolean>(failures).fill(false), true], Array<boolean>(failures).fill(true));
    await installUntilActive(p.ports);
    const expected = Array.from({ length: failures }, (_, i) => Math.min(RETRY_MS * 2 ** i, MAX_PAUSE_MS));
    expect(p.pauses).toEqual(expected);
    expect(expected.at(-1)).toBe(MAX_PAUSE_MS);
    expect(p.states.filter((s) => s === "retrying")).toHaveLength(failures);
    expect(p.states.at(-1)).toBe("active");
  });

  it("a failure for lack of signal starts the doubling over", async () => {
    // Two failures with the site answering, one without (the signal went), then one with it again.
    const p = phone([false, false, false, false, true], [true, true, false, true, true]);
    await installUntilActive(p.ports);
    expect(p.pauses).toEqual([RETRY_MS, 2 * RETRY_MS, RETRY_MS, RETRY_MS]);
    expect(p.log.slice(6)).toEqual([
      "install failed",
      "no answer",
      `pause ${RETRY_MS}`,
      "site answers",
      "install failed",
      "site answers",
      `pause ${RETRY_MS}`,
      "install ok",
    ]);
  });

  it("stops between two steps when told to, without another attempt", async () => {
    let stop = false;
    const p = phone([false], [false]);
    const pause = p.ports.pause;
    p.ports.pause = async (ms) => {
      await pause(ms);
      stop = true;
    };
    await installUntilActive(p.ports, () => stop);
    expect(p.log).toEqual(["install failed", "no answer", `pause ${RETRY_MS}`]);
    expect(p.states).toEqual(["installing", "no-network"]);
  });
});
