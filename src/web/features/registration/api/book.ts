/**
 * POST /book-v2: orders payment for the current runners. The server recomputes the price; the counts are the
 * page's claim, checked there. Token 'kampanj' means the order is settled already (free or covered by the code).
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { BookingRequest, Booking } from "../../../../shared/api-answers";
export type { BookingRequest, Booking };

/** Spec: "If the booking token equals 'kampanj' … the page reloads at once." */
export const CAMPAIGN_TOKEN = "kampanj";

export function book(body: BookingRequest): Promise<Booking> {
  return api<Booking>("/book-v2", { method: "POST", json: body });
}

export function useBook() {
  return useMutation({ mutationFn: book });
}
