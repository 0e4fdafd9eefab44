/**
 * GET /admin/api/personal-data/export?email=…|phone=…|runner=…: everything stored about the person (race day
 * included) as one JSON file, saved by the browser under the name the server gives it.
 */
import { useMutation } from "@tanstack/react-query";
import { personalDataQuery, type PersonalDataKey } from "../../../../../shared/personal-data";
import { ApiError, apiResponse } from "../../../../lib/api";

export async function exportPersonalData(key: PersonalDataKey): Promise<string> {
  const res = await apiResponse(`/admin/api/personal-data/export?${personalDataQuery(key)}`);
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => undefined);
    throw new ApiError(res.status, body);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "personuppgifter.json";
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser's download.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}

export function useExportPersonalData() {
  return useMutation({ mutationFn: exportPersonalData });
}
