/** POST /admin/api/checkin/bib: the next free bib of the runner's distance, or a typed one. */
import { useMutation } from "@tanstack/react-query";
import type { DeskRunner, GiveBib } from "../../../../../shared/checkin";
import { api } from "../../../../lib/api";
import { deviceId } from "../../../../lib/device-id";

export function useGiveBib() {
  return useMutation({
    mutationFn: (body: GiveBib) =>
      api<DeskRunner>("/admin/api/checkin/bib", { method: "POST", json: { ...body, device: deviceId() } }),
  });
}
