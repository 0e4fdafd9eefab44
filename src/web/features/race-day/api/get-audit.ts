/** GET /admin/api/races/audit/{raceId}: the race's audit trail, newest first. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RaceAuditEvent } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

export function getAudit(raceId: string): Promise<RaceAuditEvent[]> {
  return api<RaceAuditEvent[]>(`/admin/api/races/audit/${encodeURIComponent(raceId)}`);
}

export const auditQueryOptions = (raceId: string) =>
  queryOptions({ queryKey: ["admin", "race-audit", raceId], queryFn: () => getAudit(raceId) });

export function useAudit(raceId: string, enabled: boolean) {
  return useQuery({ ...auditQueryOptions(raceId), enabled });
}
