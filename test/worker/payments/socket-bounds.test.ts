/**
 * Issue 43: public sockets are capped per client (the IP in CF-Connecting-IP, counted by the object), and the
 * payment socket refuses a large frame unread and does not read D1 for every frame.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DB_CHECK_MS, MAX_FRAME_LENGTH, PAYMENT_SOCKETS_PER_CLIENT } from "../../../src/durable/payment";
import { SPECTATOR_SOCKETS_PER_CLIENT } from "../../../src/durable/spectators";
import { TOO_MANY_SOCKETS } from "../../../src/durable/socket-clients";
import { call, get, loginAdmin, openSocket, waitFor, type TestSocket } from "../helpers";
import { newClient } from "../registration-helpers";
import { seedFamily, setCallbacks, startPayment } from "../swish-helpers";

async function upgrade(path: string, headers: Record<string, string>) {
  return call(path, { headers: { upgrade: "websocket", ...headers } });
}

describe("public sockets, bounded", () => {
  it("a client gets at most 5 sockets of one payment (429 in Swedish); another client still gets one", async () => {
    const family = await seedFamily();
    const { payid } = await startPayment(family, 250);
    const client = newClient();
    const open: TestSocket[] = [];
    for (let i = 0; i < PAYMENT_SOCKETS_PER_CLIENT; i++)
      open.push(await openSocket(`/ws/pay/${payid}`, { headers: client }));
    const refused = await upgrade(`/ws/pay/${payid}`, client);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: TOO_MANY_SOCKETS });
    const other = await openSocket(`/ws/pay/${payid}`, { headers: newClient() });
    // A closed socket frees its place.
    open[0]!.ws.close(1000, "klar");
    await waitFor(async () => (await upgrade(`/ws/pay/${payid}`, client)).status === 101, 5000, "a freed place");
    for (const s of [...open, other]) s.ws.close();
  });

  it("a client gets at most 50 sockets of one race's live view", async () => {
    // The admin's race list makes the season's races (the live view needs its race in the index).
    expect((await get("/admin/api/races", { jar: await loginAdmin() })).status).toBe(200);
    const client = newClient();
    const open: TestSocket[] = [];
    for (let i = 0; i < SPECTATOR_SOCKETS_PER_CLIENT; i++) {
      open.push(await openSocket("/ws/spectate/race-250913-56", { headers: client }));
    }
    const refused = await upgrade("/ws/spectate/race-250913-56", client);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: TOO_MANY_SOCKETS });
    const other = await openSocket("/ws/spectate/race-250913-56", { headers: newClient() });
    expect(((await other.next()) as { type: string }).type).toBe("snapshot");
    for (const s of [...open, other]) s.ws.close();
  });

  it("the payment socket refuses a frame over 256 characters unread, and closes (1009)", async () => {
    const family = await seedFamily();
    const { payid } = await startPayment(family, 250);
    const socket = await openSocket(`/ws/pay/${payid}`, { headers: newClient() });
    // Valid JSON with the right payid, padded: parsed, it would be a wait-pay.
    socket.send(`{"action":"wait-pay","payid":"${payid}"${" ".repeat(MAX_FRAME_LENGTH)}}`);
    expect(await socket.next()).toEqual({ error: "Meddelandet är för stort" });
    await waitFor(() => socket.closeCode() === 1009, 5000, "the close");
  });

  it("repeated wait-pay frames read D1 once per 5 s, not per frame", async () => {
    await setCallbacks("drop");
    const family = await seedFamily();
    const { payid } = await startPayment(family, 250);
    const socket = await openSocket(`/ws/pay/${payid}`, { headers: newClient() });
    socket.send({ action: "wait-pay", payid });
    socket.send("?");
    expect(await socket.next()).toEqual({ error: "Okänt meddelande" });
    // Settled in D1 behind the object's back (no notification): frames within DB_CHECK_MS do not look again.
    await env.DB.prepare("UPDATE payments SET status = 'DECLINED' WHERE id = ?").bind(payid).run();
    const started = Date.now();
    for (let i = 0; i < 20; i++) socket.send({ action: "wait-pay", payid });
    // A socket's frames are handled in order: the answer to an unknown frame says the twenty were handled.
    socket.send("?");
    expect(await socket.next()).toEqual({ error: "Okänt meddelande" });
    expect(Date.now() - started).toBeLessThan(DB_CHECK_MS);
    expect(socket.messages).toEqual([{ error: "Okänt meddelande" }, { error: "Okänt meddelande" }]);
    socket.ws.close();
    await setCallbacks("normal");
  });
});
