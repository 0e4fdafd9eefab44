/**
 * POST /admin/api/results/import: one results file (a year and a distance) or the course records file. 422
 * `{error, errors}` names every bad line (keyed by its number) and nothing is stored; 200 says what was stored.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { storedRecordsQueryOptions, storedResultsQueryOptions } from "./get-stored-results";
import type { ImportRequest, ImportAnswer } from "../../../../../shared/api-answers";
export type { ImportRequest, ImportAnswer };

export function importResults(body: ImportRequest): Promise<ImportAnswer> {
  return api<ImportAnswer>("/admin/api/results/import", { method: "POST", json: body });
}

export function useImportResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importResults,
    // The public pages' data and the lists on this screen.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["public"] }),
        queryClient.invalidateQueries({ queryKey: storedResultsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: storedRecordsQueryOptions().queryKey }),
      ]),
  });
}
