/**
 * POST /admin/api/send-email-previous-runners and /admin/api/send-email-current-runners {subject, message}: the
 * server stores the mailing, queues one message per recipient and answers at once with the mailing's id.
 */
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../../lib/api";
import { AUDIENCES, type Audience } from "../audiences";
import type { MailingStarted } from "../../../../../shared/api-answers";
import type { MailingBody } from "../../../../../shared/mailings";
export type { MailingStarted };

export function sendMailing(audience: Audience, body: MailingBody): Promise<MailingStarted> {
  return api<MailingStarted>(AUDIENCES[audience].sendPath, { method: "POST", json: body });
}

export function useSendMailing(audience: Audience) {
  return useMutation({ mutationFn: (body: MailingBody) => sendMailing(audience, body) });
}
