/**
 * POST /admin/api/quickreg/companion: a companion place for a parent whose child registered online, answered as a
 * sale (`QuickRegStarted`: Swish's QR to show, or a payment already PAID). The same `saleId` again is answered with
 * the sale already made. 400 `{error, errors}` per field, 404 for a child not found, 409 for a child that cannot have
 * a companion now or a name the family already has.
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { CompanionSaleBody, QuickRegStarted } from "../../../../../shared/box-office";

export function startCompanionSale(body: CompanionSaleBody): Promise<QuickRegStarted> {
  return api<QuickRegStarted>("/admin/api/quickreg/companion", { method: "POST", json: body });
}

export function useStartCompanionSale() {
  return useMutation({ mutationFn: startCompanionSale });
}
