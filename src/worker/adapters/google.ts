/**
 * Google sign-in (DESIGN.md §6): the Google Identity Services ID token is verified with jose against the key
 * set at GOOGLE_JWKS_URL: RS256 signature, `aud` = our client id, `iss` either of Google's two spellings,
 * `exp` by the server's clock (≤ 30 s tolerance), and a verified e-mail. Admin status is decided elsewhere.
 *
 * The key set is fetched with `fetch` (jose caches it per resolver; resolvers live at module scope, one per
 * URL, for as long as the isolate lives). `fetchJwks` only swaps the transport: development passes one that
 * answers the Worker's own /dev/jwks.json in-process (adapters/google-stand-in.ts), so local sign-in and the tests go
 * through exactly this code with keys of their own.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type FetchImplementation } from "jose";

export const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];
export const CLOCK_TOLERANCE_SECONDS = 30;

export interface GoogleIdentity {
  email: string;
  sub: string;
  name?: string;
}

export interface VerifyGoogleOptions {
  clientId: string;
  jwksUrl: string;
  /** The server clock, epoch ms. */
  now: number;
  fetchJwks?: FetchImplementation;
}

/**
 * Any reason the credential is not a valid, verified Google identity for this site; `keysUnavailable` when the
 * key set could not be fetched (then nothing is known about the credential: a 503, not a 401).
 */
export class GoogleCredentialError extends Error {
  constructor(
    message: string,
    readonly keysUnavailable = false,
  ) {
    super(message);
  }
}

class KeySetFetchError extends Error {}

type KeySet = ReturnType<typeof createRemoteJWKSet>;
const keySets = new Map<string, { fetchJwks: FetchImplementation | undefined; keys: KeySet }>();

function keySet(jwksUrl: string, fetchJwks: FetchImplementation | undefined): KeySet {
  const cached = keySets.get(jwksUrl);
  if (cached && cached.fetchJwks === fetchJwks) return cached.keys;
  const transport = fetchJwks ?? ((url, init) => fetch(url, init));
  // Tagging transport failures keeps "Google unreachable" apart from "bad token" without guessing from messages.
  const tagged: FetchImplementation = (url, init) =>
    transport(url, init).catch((err: unknown) => {
      throw new KeySetFetchError(err instanceof Error ? err.message : String(err));
    });
  const keys = createRemoteJWKSet(new URL(jwksUrl), { [customFetch]: tagged });
  keySets.set(jwksUrl, { fetchJwks, keys });
  return keys;
}

export async function verifyGoogleCredential(
  credential: string,
  options: VerifyGoogleOptions,
): Promise<GoogleIdentity> {
  let payload;
  try {
    ({ payload } = await jwtVerify(credential, keySet(options.jwksUrl, options.fetchJwks), {
      algorithms: ["RS256"],
      audience: options.clientId,
      issuer: GOOGLE_ISSUERS,
      currentDate: new Date(options.now),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["exp", "sub", "email"],
    }));
  } catch (err) {
    const unavailable =
      err instanceof KeySetFetchError ||
      err instanceof errors.JWKSTimeout ||
      err instanceof errors.JWKSInvalid ||
      (err instanceof errors.JOSEError && err.code === "ERR_JOSE_GENERIC");
    throw new GoogleCredentialError(err instanceof Error ? err.message : String(err), unavailable);
  }
  if (payload.email_verified !== true) throw new GoogleCredentialError("e-mail not verified");
  if (typeof payload.email !== "string" || !payload.email.includes("@")) throw new GoogleCredentialError("no e-mail");
  if (typeof payload.sub !== "string") throw new GoogleCredentialError("no subject");
  return {
    email: payload.email.trim().toLowerCase(),
    sub: payload.sub,
    ...(typeof payload.name === "string" ? { name: payload.name } : {}),
  };
}
