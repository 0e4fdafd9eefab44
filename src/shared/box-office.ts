/** What the box-office calls answer (src/worker/routes/box-office.ts), shared by the Worker and /admin/kassa. */
import type { PaymentStatus } from "./payment-protocol";

/** How a box-office sign-up was paid: recorded as such, never one as another. */
export type BoxOfficeMethod = "swish" | "kontant" | "kampanj";

/** `POST /admin/api/quickreg`: the sign-up's payment, started (Swish) or already paid (cash, a free code). */
export interface QuickRegStarted {
  payid: string;
  method: BoxOfficeMethod;
  /** Whole kronor: the season's on-site price (0 with a campaign code). */
  amount: number;
  raceId: string;
  /** Swish only: the m-commerce token (the QR at `/qr-v2?token=…`). */
  token?: string;
}

/** `GET /admin/api/quickreg/{payid}`: the payment and, once paid, the runner as the race has it. */
export interface QuickRegStatus {
  payid: string;
  method: BoxOfficeMethod;
  status: PaymentStatus;
  amount: number;
  errorCode: string | null;
  errorMessage: string | null;
  runner: { firstname: string; lastname: string; age: number; distance: string; group: string; phone: string | null };
  raceId: string;
  /** The bib asked for at the box office. */
  requestedBib: number | null;
  /** In the race now (PAID and added by the race object). */
  added: boolean;
  /** The runner's bib in the race once added (null: added without one, the asked-for bib was taken). */
  bib: number | null;
}
