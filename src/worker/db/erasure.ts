/**
 * Erasure on request (src/worker/personal-data/): what every resource's erasure function is given and answers.
 * Each resource that stores something about a person has one function, `<resource>Erasure(d1, scope)`, beside its
 * other data functions, answering the statements that anonymise or delete its rows; personal-data-db.ts runs all of
 * them in one D1 batch (all or nothing). A new table that can hold a name, an address, a phone number or an id of a
 * person needs its resource's function to cover it: test/worker/personal-data/erasure-leaves-nothing.test.ts reads
 * every table after an erasure and fails otherwise.
 *
 * The person is either an e-mail address (a family: its registrations, their runners and payments, and whatever
 * names the address) or a phone number (box-office runners, who have no address: the runners with that number,
 * their payments). The scope gives each statement the person's rows as SQL: `?1` is the address ('' for a phone),
 * `?2` a JSON array of the box-office runners' ids ('[]' for an address). Statements of later resources find their
 * rows through the registrations and runners, so those rows are changed last (registrationErasure).
 */
export const ERASED_DOMAIN = "raderad.invalid";
/** What an erased address becomes where a row must keep some address (e-mail log, Epassi invitations). */
export const ERASED_ADDRESS = `raderad@${ERASED_DOMAIN}`;
/** What an erased runner is called, in D1 and in the race objects. */
export const ANONYMOUS_RUNNER = { firstname: "Anonym", lastname: "Löpare", company: "" } as const;
/** What replaces a name, an address or a phone number inside free text (a campaign note, an audit detail). */
export const ERASED_TEXT = "[raderad]";

export interface ErasureScope {
  /** The address, or null for box-office runners found by phone. */
  email: string | null;
  /** The box-office runners' ids (phone); empty for an address. */
  boxOfficeRunners: readonly string[];
  /** Texts that name the person as stored (the address; the phone numbers as typed): scrubbed from free text. */
  texts: readonly string[];
  /** SQL: the person's registration ids. */
  registrations: string;
  /** SQL: the person's runner (participant) ids. */
  participants: string;
  /** SQL: the person's payment ids. */
  payments: string;
}

/** What the erasure counts (the answer of POST /admin/api/personal-data/erase). */
export type ErasureCountKey =
  | "registrations"
  | "runners"
  | "payments"
  | "emails"
  | "loginCodes"
  | "loginFailures"
  | "sessions"
  | "unsubscribes"
  | "mailings"
  | "epassiInvitations"
  | "campaignCodes"
  | "auditRows";

export interface ErasureStatement {
  /** Which count its changed rows add to; none for a statement that only supports another. */
  count?: ErasureCountKey;
  statement: D1PreparedStatement;
}

/**
 * A statement of the scope: `?1` and `?2` bound as the module comment says, then `more` as ?3, ?4 … (D1 wants
 * exactly as many values as the highest ?N the statement uses).
 */
export function scoped(d1: D1Database, scope: ErasureScope, sql: string, ...more: unknown[]): D1PreparedStatement {
  const highest = Math.max(0, ...[...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  const values = [scope.email ?? "", JSON.stringify(scope.boxOfficeRunners), ...more];
  return d1.prepare(sql).bind(...values.slice(0, highest));
}

/**
 * An address scope: a family. Its payments are the registrations' own and those of the box office that paid a
 * runner of the family (a companion sold at the box office for a child registered online, box-office/
 * companion-sale.ts).
 */
export function emailScope(email: string): ErasureScope {
  const registrations = "SELECT id FROM registrations WHERE email = ?1";
  const participants = `SELECT id FROM participants WHERE registration_id IN (${registrations})`;
  return {
    email,
    boxOfficeRunners: [],
    texts: [email],
    registrations,
    participants,
    payments: `SELECT id FROM payments WHERE registration_id IN (${registrations})
               UNION SELECT paid_by FROM participants WHERE registration_id IN (${registrations})
                 AND paid_by IS NOT NULL`,
  };
}

/** A phone scope: the box-office runners `ids` (found by their number), their payments (paid or not). */
export function boxOfficeScope(ids: readonly string[], phones: readonly string[]): ErasureScope {
  const runners = "SELECT value FROM json_each(?2)";
  return {
    email: null,
    boxOfficeRunners: ids,
    texts: phones,
    registrations: "SELECT id FROM registrations WHERE 0",
    participants: runners,
    payments: `SELECT paid_by FROM participants WHERE id IN (${runners}) AND paid_by IS NOT NULL
               UNION SELECT p.id FROM payments p, json_each(p.participant_ids) j
                WHERE p.registration_id IS NULL AND p.origin = 'kassa' AND j.value IN (${runners})`,
  };
}
