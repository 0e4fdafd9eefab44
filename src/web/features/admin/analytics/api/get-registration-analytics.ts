/**
 * GET /admin/api/registration-analytics (admin spec §7: "analytics data, or an error field"). The errors the page
 * shows are the spec's (§8): the response's `error` field when it has one, otherwise 'HTTP error! status: {code}'
 * for a failed answer; a network failure gives the site's usual Swedish message.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { isRegistrationAnalytics, type RegistrationAnalytics } from "../../../../../shared/analytics";
import { errorAnswerOf } from "../../../../../shared/api-answers";
import { apiResponse } from "../../../../lib/api";

export async function getRegistrationAnalytics(): Promise<RegistrationAnalytics> {
  const res = await apiResponse("/admin/api/registration-analytics");
  let body: unknown = undefined;
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy's error page): only the status says what happened.
  }
  const error = errorAnswerOf(body)?.error;
  if (error) throw new Error(error);
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  if (!isRegistrationAnalytics(body)) throw new Error("Svaret från servern gick inte att läsa.");
  return body;
}

export const registrationAnalyticsQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "registration-analytics"],
    queryFn: getRegistrationAnalytics,
    // The refresh button asks again; a failed answer is shown at once rather than retried behind the alert.
    retry: false,
    refetchOnWindowFocus: false,
  });

export function useRegistrationAnalytics() {
  return useQuery(registrationAnalyticsQueryOptions());
}
