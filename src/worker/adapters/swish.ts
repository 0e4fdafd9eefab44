/**
 * The Swish Commerce API client (reference/swish.md): v2 create, v1 retrieve and cancel, v2 refunds.
 *
 * Every call goes through an injected fetcher, so production and development run the same HTTP code:
 * - production: the mTLS certificate binding `SWISH_CERT` (Swish authenticates the merchant by client cert);
 * - development and tests: the built-in simulator under `/dev/swish/`, reached in-process through the Worker's own
 *   default entrypoint (a Worker cannot fetch its own localhost origin in the test pool, and the dev port may
 *   differ from the one in SWISH_BASE_URL), or plain `fetch` when SWISH_BASE_URL points elsewhere (e.g. MSS
 *   through a proxy).
 */
import QRCode from "qrcode-svg";
import { z } from "zod";
import { swishQrContent } from "../../shared/payment-protocol";
import { loopbackFetch } from "../lib/loopback";

export type SwishFetcher = (request: Request) => Promise<Response>;

/** Path prefix of the built-in simulator (dev/swish-simulator.ts). */
export const SIMULATOR_PREFIX = "/dev/swish/";

/** Swish answers in well under a second; a hung call must not hold a settlement or a booking forever. */
const TIMEOUT_MS = 10_000;

export interface CreatePaymentRequestBody {
  payeePaymentReference?: string;
  callbackUrl: string;
  callbackIdentifier?: string;
  payeeAlias: string;
  /** "150.00" */
  amount: string;
  currency: "SEK";
  message?: string;
  /** Present = e-commerce (Swish pushes to this phone); absent = m-commerce (token). Never send null. */
  payerAlias?: string;
}

export interface CreateRefundBody {
  originalPaymentReference: string;
  callbackUrl: string;
  /** Our own Swish number: the refund's payer. */
  payerAlias: string;
  amount: string;
  currency: "SEK";
  payerPaymentReference?: string;
  payeeAlias?: string;
  message?: string;
  callbackIdentifier?: string;
}

const amountSchema = z.union([z.number(), z.string().regex(/^\d+(\.\d{1,2})?$/)]).transform(Number);
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

/** The fields Swish's payment and refund objects share (both are read back with GET …/v1/…/{id}). */
const swishObjectBase = z.object({
  id: z.string().min(1),
  paymentReference: optionalText,
  callbackUrl: optionalText,
  payerAlias: optionalText,
  payeeAlias: optionalText,
  amount: amountSchema,
  currency: z.string(),
  message: optionalText,
  status: z.string(),
  dateCreated: optionalText,
  datePaid: optionalText,
  errorCode: optionalText,
  errorMessage: optionalText,
  additionalInformation: optionalText,
});

export const swishPaymentSchema = swishObjectBase.extend({ payeePaymentReference: optionalText });
export type SwishPayment = z.infer<typeof swishPaymentSchema>;

export const swishRefundSchema = swishObjectBase.extend({
  originalPaymentReference: optionalText,
  payerPaymentReference: optionalText,
});
export type SwishRefund = z.infer<typeof swishRefundSchema>;

export interface SwishErrorItem {
  errorCode: string;
  errorMessage: string;
  additionalInformation?: string | null;
}

const errorArraySchema = z.array(
  z.object({ errorCode: z.string(), errorMessage: z.string().default(""), additionalInformation: optionalText }),
);

/** A call Swish did not answer as documented. `status` 0 means the request never got an answer. */
export class SwishError extends Error {
  constructor(
    readonly status: number,
    readonly errors: SwishErrorItem[],
    message: string,
  ) {
    super(message);
    this.name = "SwishError";
  }

  /** The first Swish error code, or a code of ours for transport failures. */
  get code(): string {
    return this.errors[0]?.errorCode ?? (this.status === 0 ? "NETWORK" : `HTTP${this.status}`);
  }
}

export interface SwishClientOptions {
  /** e.g. https://cpc.getswish.net/swish-cpcapi/api/ (trailing slash) */
  baseUrl: string;
  fetcher: SwishFetcher;
}

export function swishClient({ baseUrl, fetcher }: SwishClientOptions) {
  const base = baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`;

  async function call(method: string, path: string, body?: unknown, contentType = "application/json") {
    const headers = new Headers({ accept: "application/json" });
    if (body !== undefined) headers.set("content-type", contentType);
    const request = new Request(new URL(path, base), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    try {
      return await fetcher(request);
    } catch (err) {
      throw new SwishError(0, [], `Swish ${method} ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function failure(res: Response, what: string): Promise<SwishError> {
    const text = await res.text().catch(() => "");
    let errors: SwishErrorItem[] = [];
    try {
      const parsed = errorArraySchema.safeParse(JSON.parse(text));
      if (parsed.success) errors = parsed.data;
    } catch {
      // Not JSON: the status says enough.
    }
    const detail = errors.map((e) => `${e.errorCode} ${e.errorMessage}`).join("; ") || text.slice(0, 200);
    return new SwishError(res.status, errors, `Swish ${what}: HTTP ${res.status} ${detail}`.trim());
  }

  async function parse<T>(res: Response, schema: z.ZodType<T>, what: string): Promise<T> {
    const json: unknown = await res.json().catch(() => undefined);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new SwishError(res.status, [], `Swish ${what}: unexpected body`);
    return parsed.data;
  }

  return {
    /** PUT v2: 201 with an empty body; the token comes only for m-commerce (no payerAlias) and only this once. */
    async createPaymentRequest(
      id: string,
      body: CreatePaymentRequestBody,
    ): Promise<{ location: string | null; token: string | null }> {
      const res = await call("PUT", `v2/paymentrequests/${encodeURIComponent(id)}`, body);
      if (res.status !== 201) throw await failure(res, "create payment request");
      await res.body?.cancel();
      // Headers.get is case-insensitive; Swish has been recorded sending "Paymentrequesttoken".
      return { location: res.headers.get("location"), token: res.headers.get("paymentrequesttoken") };
    },

    /** GET v1; null when Swish does not know the id (which may also mean wrong certificate or environment). */
    async retrievePaymentRequest(id: string): Promise<SwishPayment | null> {
      const res = await call("GET", `v1/paymentrequests/${encodeURIComponent(id)}`);
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (res.status !== 200) throw await failure(res, "retrieve payment request");
      return parse(res, swishPaymentSchema, "retrieve payment request");
    },

    /** PATCH v1 (JSON Patch); only a CREATED request can be cancelled, anything else is a 422 (RP07). */
    async cancelPaymentRequest(id: string): Promise<SwishPayment> {
      const res = await call(
        "PATCH",
        `v1/paymentrequests/${encodeURIComponent(id)}`,
        [{ op: "replace", path: "/status", value: "cancelled" }],
        "application/json-patch+json",
      );
      if (res.status !== 200) throw await failure(res, "cancel payment request");
      return parse(res, swishPaymentSchema, "cancel payment request");
    },

    async createRefund(id: string, body: CreateRefundBody): Promise<{ location: string | null }> {
      const res = await call("PUT", `v2/refunds/${encodeURIComponent(id)}`, body);
      if (res.status !== 201) throw await failure(res, "create refund");
      await res.body?.cancel();
      return { location: res.headers.get("location") };
    },

    async retrieveRefund(id: string): Promise<SwishRefund | null> {
      const res = await call("GET", `v1/refunds/${encodeURIComponent(id)}`);
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (res.status !== 200) throw await failure(res, "retrieve refund");
      return parse(res, swishRefundSchema, "retrieve refund");
    },
  };
}

export type SwishClient = ReturnType<typeof swishClient>;

/** Whether a URL points at the built-in simulator, which only exists in development mode. */
export function isSimulatorUrl(url: string): boolean {
  try {
    return new URL(url).pathname.startsWith(SIMULATOR_PREFIX);
  } catch {
    return false;
  }
}

/** The fetcher for this environment (see the file comment). */
export function swishFetcher(env: Env): SwishFetcher {
  if (env.DEV_MODE === "true") return isSimulatorUrl(env.SWISH_BASE_URL) ? loopbackFetch : (req) => fetch(req);
  const cert = env.SWISH_CERT;
  if (!cert) return async () => Promise.reject(new Error("the SWISH_CERT (mTLS) binding is missing"));
  return (req) => cert.fetch(req);
}

export function swishClientFor(env: Env): SwishClient {
  return swishClient({ baseUrl: env.SWISH_BASE_URL, fetcher: swishFetcher(env) });
}

/**
 * The payment QR for a token, rendered here rather than by Swish's QR service (no network, no certificate):
 * it encodes "D" + token (reference/swish.md §2). Error correction M leaves room for a centred logo later.
 */
export function tokenQrSvg(token: string, size = 300): string {
  const qr = new QRCode({
    content: swishQrContent(token),
    ecl: "M",
    padding: 2,
    width: size,
    height: size,
    join: true,
    pretty: false,
    xmlDeclaration: false,
    container: "svg-viewbox",
    // qrcode-svg draws modules[row][col] at x = row: without the swap the symbol comes out transposed (a mirror
    // image, which a strict scanner refuses). The test decodes the SVG as an image to keep this right.
    swap: true,
  });
  return qr.svg();
}

/** The module matrix of the same QR (for raster renderings). */
export function tokenQrModules(token: string): boolean[][] {
  return new QRCode({ content: swishQrContent(token), ecl: "M", padding: 0 }).qrcode.modules;
}
