/**
 * POST /admin/api/quickreg (spec §7): the runner and how the fee is paid. Swish answers `{token}` (plus the payid
 * to wait for); cash and a campaign code answer a payment that is already PAID. 400 `{error, errors}` per field,
 * 409 for a taken bib, 404 for a distance without a race.
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import type { QuickRegBody, QuickRegSaleBody, QuickRegStarted } from "../../../../../shared/box-office";

export function startQuickReg(body: QuickRegBody | QuickRegSaleBody): Promise<QuickRegStarted> {
  return api<QuickRegStarted>("/admin/api/quickreg", { method: "POST", json: body });
}

export function useStartQuickReg() {
  return useMutation({ mutationFn: startQuickReg });
}
