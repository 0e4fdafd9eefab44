/**
 * A cheap phone with poor signal, as bench/race-screen-load.mjs measures it (issue 23 item 11, issue 41): the CPU
 * slowed 4× and the network held to 150 ms round trip and 1.6 Mbit/s down (750 kbit/s up), through the DevTools
 * protocol, for every page of the browser and for its service workers (whose own fetches the page's settings do not
 * cover; only the per-rule form of the setting reaches them).
 */
import type { Browser, Page } from "playwright-core";

export const SLOW_NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};
export const CPU_SLOWDOWN = 4;

interface TargetInfo {
  targetId: string;
  type: string;
}

export interface SlowPhone {
  /** Resolves once `page` is slowed (a new page is slowed a moment after it opens: wait before navigating). */
  slowed: (page: Page) => Promise<void>;
  stop: () => Promise<void>;
}

/** Slows every page and service worker of `browser`, those there now and those to come, until `stop()`. */
export async function slowEveryTarget(browser: Browser): Promise<SlowPhone> {
  const cdp = await browser.newBrowserCDPSession();
  const done = new Map<string, Promise<void>>();
  const slow = ({ targetId, type }: TargetInfo) => {
    if (!["page", "service_worker"].includes(type) || done.has(targetId)) return;
    done.set(targetId, apply(targetId, type));
  };
  const apply = async (targetId: string, type: string) => {
    let sessionId: string;
    try {
      ({ sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: false }));
    } catch {
      return; // gone already
    }
    let id = 0;
    const send = (method: string, params: object) =>
      cdp
        .send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: ++id, method, params }) })
        .catch(() => undefined);
    await send("Network.enable", {});
    if (type === "page") {
      await send("Network.emulateNetworkConditions", SLOW_NETWORK);
      await send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    } else {
      const { offline, ...conditions } = SLOW_NETWORK;
      await send("Network.emulateNetworkConditionsByRule", {
        offline,
        matchedNetworkConditions: [{ urlPattern: "", ...conditions }],
      });
    }
  };
  cdp.on("Target.targetCreated", ({ targetInfo }: { targetInfo: TargetInfo }) => slow(targetInfo));
  await cdp.send("Target.setDiscoverTargets", { discover: true });
  const { targetInfos } = await cdp.send("Target.getTargets");
  targetInfos.forEach(slow);
  return {
    slowed: async (page) => {
      const session = await page.context().newCDPSession(page);
      const { targetInfo } = await session.send("Target.getTargetInfo");
      await session.detach();
      while (!done.has(targetInfo.targetId)) await new Promise((resolve) => setTimeout(resolve, 20));
      await done.get(targetInfo.targetId);
    },
    stop: () => cdp.detach().catch(() => undefined),
  };
}
