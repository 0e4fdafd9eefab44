/** POST /admin/api/checkin/bib: the next free bib of the runner's distance, or a typed one. */
import { useMutation } from "@tanstack/react-query";
import type { DeskRunner } from "../../../../../shared/checkin";
import { api } from "../../../../lib/api";
import { deviceId } from "../../../../lib/device-id";

export interface GiveBib {
  raceId: string;
  runnerId: string;
  bib: number | "next";
}

export function useGiveBib() {
  return useMutation({
    mutationFn: (body: GiveBib) =>
      api<DeskRunner>("/admin/api/checkin/bib", { method: "POST", json: { ...body, device: deviceId() } }),
  });
}
