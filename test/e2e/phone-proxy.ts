/**
 * A phone's own way to the test server, which a test can cut and restore: a TCP proxy on its own port that
 * forwards every byte (HTTP and WebSocket alike) to the server. `cut()` closes the listening socket and destroys
 * every open connection, so the phone's socket dies and its calls fail the way they do when a phone walks out of
 * coverage (not the browser's offline emulation, which a service worker and the page can see through). `restore()`
 * listens again on the same port. The page's origin is the proxy's, so the site's socket URL (`wsUrl`, made from
 * the page's own host) goes through it too.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface PhoneProxy {
  /** http://localhost:{port} — open the phone's pages here. */
  baseURL: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startPhoneProxy(target: string): Promise<PhoneProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | null = null;

  function listen(port: number): Promise<number> {
    const s = createServer((client) => {
      const upstream = createConnection({ host: hostname, port: Number(targetPort) });
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        // A reset on one side ends both; the error itself is the point of a cut.
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server = s;
    return new Promise((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve((s.address() as { port: number }).port));
    });
  }

  async function stop(): Promise<void> {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  const port = await listen(0);
  return {
    baseURL: `http://localhost:${port}`,
    cut: stop,
    async restore() {
      if (!server) await listen(port);
    },
    close: stop,
  };
}
