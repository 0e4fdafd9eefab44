/** POST /admin/api/checkin/pickup: 'Hämtat' or 'Ångra' for runners of one family (sent by the desk's queue). */
import type { PickupAnswer, PickupRequest } from "../../../../../shared/checkin";
import { api } from "../../../../lib/api";

export function sendPickup(request: PickupRequest): Promise<PickupAnswer> {
  return api<PickupAnswer>("/admin/api/checkin/pickup", { method: "POST", json: request });
}
