/**
 * The one fetch wrapper every screen uses. Same-origin credentials so the session cookies travel, JSON both
 * ways, and the `x-loppet-client` header on every call: the Worker's same-origin guard (DESIGN.md §4) accepts
 * it where older Safari sends neither Sec-Fetch-Site nor Origin.
 */

import { errorAnswerOf, type ErrorAnswer } from "../../shared/api-answers";

const CLIENT_HEADER = "x-loppet-client";

/** A non-2xx answer (status 0: the network failed). `message` is the server's Swedish `error` text when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(errorText(status, body));
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  /** The server's error answer (shared/api-answers.ts), or null when the body is none. */
  get answer(): ErrorAnswer | null {
    return errorAnswerOf(this.body);
  }

  /** The server's field errors (`{error, errors}`), if any. */
  get errors(): unknown {
    return isRecord(this.body) ? this.body.errors : undefined;
  }
}

export interface ApiInit extends Omit<RequestInit, "body"> {
  /** Sent as a JSON body; `body` stays available for anything else (text, FormData). */
  json?: unknown;
  body?: BodyInit | null;
}

/** Calls `path` on this site; resolves to the parsed JSON (or text; undefined for 204) or throws ApiError. */
export async function api<T = unknown>(path: string, init: ApiInit = {}): Promise<T> {
  const res = await apiResponse(path, init);
  const parsed = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed as T;
}

/**
 * The same call, answering the raw Response whatever its status, for a caller whose statuses carry the answer
 * (/verify: 200 and 202 are both successes). A failed network still throws ApiError with status 0.
 */
export async function apiResponse(path: string, init: ApiInit = {}): Promise<Response> {
  const { json, headers, ...rest } = init;
  const h = new Headers(headers);
  h.set(CLIENT_HEADER, "1");
  if (!h.has("accept")) h.set("accept", "application/json");
  let body = rest.body;
  if (json !== undefined) {
    h.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  try {
    return await fetch(path, { ...rest, body, headers: h, credentials: "same-origin" });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, { error: "Kunde inte nå servern. Kontrollera din anslutning och försök igen." });
  }
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (text === "") return undefined;
  if ((res.headers.get("content-type") ?? "").includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function errorText(status: number, body: unknown): string {
  const answer = errorAnswerOf(body);
  if (answer?.error) return answer.error;
  if (status === 0 || status >= 500) return "Något gick fel på servern. Försök igen om en stund.";
  return `Något gick fel (${status}).`;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}
