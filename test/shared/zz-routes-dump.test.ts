import { writeFileSync } from "node:fs";
import { it, vi } from "vitest";
vi.mock("cloudflare:workers", () => ({ exports: {}, WorkerEntrypoint: class {}, DurableObject: class {} }));
it("dumps routes", async () => {
  const appModule = "../../src/worker/app";
  const { createApp } = (await import(appModule)) as { createApp: () => { routes: { method: string; path: string }[] } };
  const lines = createApp().routes.map((r) => `${r.method} ${r.path}`).sort();
  writeFileSync(process.env.ROUTES_OUT ?? "/tmp/i42/routes.txt", lines.join("\n") + "\n");
}, 60_000);
