/**
 * GET /verify?id={payref}: has this payment settled? Spec §4: "The status code decides": 200 settled, 202 still
 * waiting, 403 logged out, 404 unknown. Read as a raw response because a 202 and a 200 are both successes that
 * api() would not tell apart.
 */
import { ApiError, apiResponse } from "../../../lib/api";

export type VerifyOutcome = "settled" | "waiting" | "logged-out" | "not-found" | "unusable" | "retry";

export async function verifyPayment(id: string, signal?: AbortSignal): Promise<VerifyOutcome> {
  let res: Response;
  try {
    res = await apiResponse(`/verify?id=${encodeURIComponent(id)}`, { cache: "no-store", signal });
  } catch (err) {
    if (err instanceof ApiError) return "retry";
    throw err;
  }
  switch (res.status) {
    case 200:
      // A 200 must carry the JSON answer; one that does not (a proxy's page, a broken body) cannot proceed.
      try {
        const body: unknown = await res.json();
        return typeof body === "object" && body !== null ? "settled" : "unusable";
      } catch {
        return "unusable";
      }
    case 202:
      return "waiting";
    case 401:
    case 403:
      return "logged-out";
    case 404:
      return "not-found";
    default:
      // 429 and 5xx: the server is busy or briefly broken; the next try may well work.
      return "retry";
  }
}
