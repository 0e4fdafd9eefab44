/**
 * The few Web Crypto helpers the Worker needs, written once: sessions, login codes, free-order payids and the
 * Swish simulator all hash (plain or keyed), compare secrets or draw random ids.
 */

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the text's UTF-8 bytes, lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/**
 * HMAC-SHA-256 of `message` under the server secret, lower-case hex: how short secrets (login codes) are kept at
 * rest. A copy of the database alone cannot be searched for them without the key. `purpose` separates the uses
 * of the one server secret (it also signs the session cookies).
 */
export async function keyedHash(secret: string | undefined, purpose: string, message: string): Promise<string> {
  // A short or missing key would make the hash no better than a plain one; refuse to run rather than use it.
  if (!secret || secret.length < 32) throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${purpose}\u0000${message}`))));
}

/** `bytes` random bytes from the CSPRNG, lower-case hex. */
export function randomHex(bytes: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Equal-time comparison of two secrets of any length (hashing first equalises the lengths). */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  return crypto.subtle.timingSafeEqual(a, b);
}
