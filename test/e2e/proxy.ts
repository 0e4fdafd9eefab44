/**
 * A small HTTP proxy in front of a test server, so a browser can lose its connection for real (every request the
 * page or its service worker makes fails, open sockets drop), the way `page.setOffline` does not reliably do for
 * a service worker's own fetches. Also: a path pattern answered 503 (the API down while the site is up). The Host
 * header passes unchanged, so the site sees the proxy's address as its own (cookies, origin checks, the socket URL).
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";

export interface TestProxy {
  baseURL: string;
  /** No connection: every open connection is cut, every new one closed at once. */
  offline(): void;
  online(): void;
  /** Requests whose path matches get 503 (null: none). */
  fail(pattern: RegExp | null): void;
  close(): Promise<void>;
}

export async function startProxy(upstreamPort: number): Promise<TestProxy> {
  let down = false;
  let failing: RegExp | null = null;
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    // A kept-alive connection to the server serves many requests: one listener is enough.
    if (open.has(socket)) return;
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  };
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };

  const server = http.createServer((req, res) => {
    if (down) return void req.socket.destroy();
    if (failing?.test(req.url ?? "")) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "Tillfälligt fel (testets proxy)." }));
      return;
    }
    const forward = http.request(
      { host: "localhost", port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    forward.on("socket", track);
    forward.on("error", () => req.socket.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 1_000;
  server.on("connection", (socket) => {
    if (down) return void socket.destroy();
    track(socket);
  });
  // WebSockets: the upgrade request is written to the server as it came, then bytes flow both ways.
  server.on("upgrade", (req, socket: net.Socket, head: Buffer) => {
    if (down) return void socket.destroy();
    const back = net.connect({ host: "localhost", port: upstreamPort }, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      back.write(lines.join("\r\n") + "\r\n\r\n");
      if (head.length > 0) back.write(head);
      socket.pipe(back);
      back.pipe(socket);
    });
    track(back);
    track(socket);
    const end = () => {
      socket.destroy();
      back.destroy();
    };
    back.on("error", end);
    socket.on("error", end);
    back.on("close", end);
    socket.on("close", end);
  });

  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://localhost:${port}`,
    offline() {
      down = true;
      cutAll();
    },
    online() {
      down = false;
    },
    fail(pattern) {
      failing = pattern;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
}
