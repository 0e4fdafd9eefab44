/**
 * What a payment that did not go through tells the family, in Swedish (the page and the receipt page). Swish's own
 * errorMessage is English ("Transaction declined") and meant for the merchant, so it is never shown to a visitor;
 * the text follows the status and Swish's error code (reference/swish.md §2: the asynchronous codes), and our own
 * codes for payments we ended ourselves (MISMATCH, TM01 from the cron, a create that failed).
 */
import type { PaymentStatus } from "./payment-protocol";

const NO_MONEY = "Inga pengar har dragits.";

const BY_CODE: Record<string, string> = {
  RF07: `Betalningen nekades, till exempel på grund av en beloppsgräns. ${NO_MONEY}`,
  BANKIDCL: `Signeringen med BankID avbröts. ${NO_MONEY}`,
  TM01: `Betalningen godkändes inte i Swish-appen i tid. ${NO_MONEY}`,
  FF10: `Banken kunde inte genomföra betalningen. ${NO_MONEY}`,
  // Swish timed out waiting for the bank after the payment was started: the outcome is not known.
  DS24: "Swish fick inget svar från din bank i tid. Kontrollera i din bank om pengarna har dragits innan du betalar igen.",
  BANKIDONGOING: `En annan BankID-signering pågick samtidigt. ${NO_MONEY}`,
  BANKIDUNKN: `BankID kunde inte godkänna betalningen. ${NO_MONEY}`,
  RP06: `Det fanns redan en obesvarad betalning i din Swish-app. Avbryt den i appen och försök igen. ${NO_MONEY}`,
  ACMT03: `Numret är inte anslutet till Swish. ${NO_MONEY}`,
  VR01: `Swish-kontot uppfyller inte åldersgränsen för betalningen. ${NO_MONEY}`,
  RP08: `Betalningen avbröts. ${NO_MONEY}`,
  MISMATCH:
    "Betalningen stämde inte med beställningen och godkändes inte. Kontakta oss om pengar har dragits, så reder vi ut det.",
};

/** The family's explanation of an unpaid payment (status DECLINED, ERROR or CANCELLED). */
export function failureText(payment: { status: PaymentStatus; errorCode: string | null }): string {
  const byCode = payment.errorCode ? BY_CODE[payment.errorCode] : undefined;
  if (byCode) return byCode;
  switch (payment.status) {
    case "DECLINED":
      return `Betalningen avbröts eller nekades i Swish-appen. ${NO_MONEY}`;
    case "CANCELLED":
      return `Betalningen avbröts. ${NO_MONEY}`;
    default:
      return `Betalningen kunde inte genomföras. ${NO_MONEY}`;
  }
}
