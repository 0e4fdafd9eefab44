/**
 * GET /admin/api/races/audit/{raceId}?limit=5000: the race's audit trail, newest first. The whole of it (the
 * server's most): devices are numbered by their first appearance in it, which a shorter tail would move.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RaceAuditEvent } from "../../../../shared/race-protocol";
import { api } from "../../../lib/api";

const AUDIT_LIMIT = 5_000;

export function getAudit(raceId: string): Promise<RaceAuditEvent[]> {
  return api<RaceAuditEvent[]>(`/admin/api/races/audit/${encodeURIComponent(raceId)}?limit=${AUDIT_LIMIT}`);
}

export const auditQueryOptions = (raceId: string) =>
  queryOptions({ queryKey: ["admin", "race-audit", raceId], queryFn: () => getAudit(raceId) });

export function useAudit(raceId: string, enabled: boolean) {
  return useQuery({ ...auditQueryOptions(raceId), enabled });
}
