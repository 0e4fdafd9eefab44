/**
 * A cap on a public socket's connections per client (issue 43): each accepted socket carries its client as a
 * WebSocket tag, so the object counts a client's open sockets with `getWebSockets(tag)`, which holds across
 * hibernation and eviction with nothing in memory. The client is Cloudflare's connecting IP, passed on by the
 * Worker's upgrade route (else the first proxy hop, in local runs). One network (a venue's Wi-Fi, a school) shares
 * an IP, so a cap is set well above what one person opens.
 */

export const TOO_MANY_SOCKETS = "För många öppna anslutningar från din uppkoppling. Stäng någon flik och försök igen.";

/** The socket tag of the request's client. */
export function clientTag(request: Request): string {
  const ip =
    request.headers.get("cf-connecting-ip") ??
    request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ??
    request.headers.get("x-real-ip") ??
    "okänd";
  return `klient:${ip.slice(0, 64)}`;
}

/** Whether the client already has `max` open sockets in this object. */
export function clientAtCap(ctx: DurableObjectState, tag: string, max: number): boolean {
  return ctx.getWebSockets(tag).filter((ws) => ws.readyState === WebSocket.OPEN).length >= max;
}

/** The refusal: 429 with the Swedish message, before any socket is made. */
export function tooManySockets(): Response {
  return Response.json({ error: TOO_MANY_SOCKETS }, { status: 429, headers: { "retry-after": "30" } });
}
