/**
 * Development stand-in for Google's side of sign-in: an RSA key pair made once per isolate, its public half
 * served at /dev/jwks.json, and Google-shaped ID tokens signed with its private half (POST /dev/google-token).
 * The verification path (adapters/google.ts) is production's; only where the key set comes from differs.
 * Nothing here is reachable unless DEV_MODE is "true" (routes/dev.ts and the app's dev-only middleware).
 */
import { exportJWK, generateKeyPair, SignJWT, type FetchImplementation, type JSONWebKeySet, type JWK } from "jose";
import { GOOGLE_ISSUERS } from "./google";

export const DEV_JWKS_PATH = "/dev/jwks.json";

interface DevKeys {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
}

let devKeys: Promise<DevKeys> | undefined;

function keys(): Promise<DevKeys> {
  devKeys ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const kid = `dev-${crypto.randomUUID()}`;
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
    return { privateKey, publicJwk, kid };
  })();
  // A failed generation must not be cached for the isolate's lifetime.
  devKeys.catch(() => (devKeys = undefined));
  return devKeys;
}

export async function devJwks(): Promise<JSONWebKeySet> {
  return { keys: [(await keys()).publicJwk] };
}

export interface DevGoogleClaims {
  email: string;
  aud: string;
  iss?: string;
  /** Expiry, epoch seconds. Default: an hour after `now`. */
  exp?: number;
  email_verified?: boolean;
  name?: string;
}

/** A Google-shaped ID token (same claims GIS delivers) signed with the development key. */
export async function signDevGoogleToken(claims: DevGoogleClaims, now: number): Promise<string> {
  const { privateKey, kid } = await keys();
  const iat = Math.floor(now / 1000);
  const email = claims.email.trim().toLowerCase();
  return new SignJWT({
    email,
    email_verified: claims.email_verified ?? true,
    name: claims.name ?? email.split("@")[0],
    azp: claims.aud,
  })
    .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
    .setIssuer(claims.iss ?? GOOGLE_ISSUERS[0]!)
    .setAudience(claims.aud)
    .setSubject(`dev-${email}`)
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 3600)
    .sign(privateKey);
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The key-set transport in development: GOOGLE_JWKS_URL points at this Worker's own /dev/jwks.json
 * (wrangler.toml), which is answered in-process, as the Worker cannot reliably fetch itself (the tests
 * have no listening server; `npm start` may run on another PORT). Any other URL is fetched normally.
 */
export const devJwksFetch: FetchImplementation = async (url, options) => {
  const target = new URL(url);
  if (LOOPBACK_HOSTS.has(target.hostname) && target.pathname === DEV_JWKS_PATH) {
    return Response.json(await devJwks(), { headers: { "cache-control": "no-store" } });
  }
  return fetch(url, options);
};
