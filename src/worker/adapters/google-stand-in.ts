/**
 * Development stand-in for Google's side of sign-in: an RSA key pair made once per isolate, its public half
 * served at /dev/jwks.json, and Google-shaped ID tokens signed with its private half (POST /dev/google-token).
 * The verification path (adapters/google.ts) is production's; only where the key set comes from differs.
 * Nothing here is reachable unless DEV_MODE is "true" (dev/routes.ts and the app's dev-only middleware).
 */
import { exportJWK, generateKeyPair, SignJWT, type FetchImplementation, type JSONWebKeySet, type JWK } from "jose";
import { GOOGLE_ISSUERS } from "./google";
import { isLoopbackHost } from "../lib/loopback";

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

/**
 * The key-set transport in development: GOOGLE_JWKS_URL points at this Worker's own /dev/jwks.json
 * (wrangler.toml), which is answered in-process, as the Worker cannot reliably fetch itself (the tests
 * have no listening server; `npm start` may run on another PORT). Any other URL is fetched normally.
 */
export const devJwksFetch: FetchImplementation = async (url, options) => {
  const target = new URL(url);
  if (isLoopbackHost(target.hostname) && target.pathname === DEV_JWKS_PATH) {
    return Response.json(await devJwks(), { headers: { "cache-control": "no-store" } });
  }
  return fetch(url, options);
};

/**
 * GET /dev/gsi/client: the development stand-in for Google Identity Services' script
 * (https://accounts.google.com/gsi/client), which the sign-in page loads instead in development, where nothing
 * may reach the internet. Same surface the page uses: `google.accounts.id.initialize({client_id, callback})`,
 * `renderButton(parent, options)` and `prompt()`. Its button signs the typed address in as a Google account
 * would: it asks /dev/google-token for a Google-shaped ID token for the client id the page initialised with
 * (a page passing the wrong id gets a token the server refuses, as with Google) and hands it to the page's
 * callback as `{credential, select_by: "btn"}`. From there the page's own code and the server's real
 * verification run unchanged.
 *
 * Plain JavaScript in a string: it runs in the browser, not the Worker, and a serialised function would carry
 * the bundler's helpers with it.
 */
export const GSI_STAND_IN_SCRIPT = `"use strict";
(function () {
  var DEFAULT_EMAIL = "arrangor@example.se";
  var settings = null;

  function field(labelText, input) {
    var label = document.createElement("label");
    label.className = "field";
    var text = document.createElement("span");
    text.className = "field-label";
    text.textContent = labelText;
    label.append(text, input);
    return label;
  }

  function signIn(email) {
    return fetch("/dev/google-token", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-loppet-client": "1" },
      body: JSON.stringify({ email: email, aud: settings.clientId }),
    }).then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) throw new Error((body && body.error) || "Kunde inte skapa en Google-inloggning.");
        return body.credential;
      });
    });
  }

  var id = {
    initialize: function (options) {
      if (!options || typeof options.client_id !== "string" || !options.client_id) {
        throw new Error("[GSI utveckling] initialize: client_id saknas");
      }
      if (typeof options.callback !== "function") throw new Error("[GSI utveckling] initialize: callback saknas");
      settings = { clientId: options.client_id, callback: options.callback };
    },

    renderButton: function (parent) {
      if (!(parent instanceof HTMLElement)) throw new Error("[GSI utveckling] renderButton: inget element");
      var box = document.createElement("div");
      box.className = "gsi-dev";
      box.setAttribute("data-gsi-stand-in", "");

      var input = document.createElement("input");
      input.type = "email";
      input.name = "google-account";
      input.value = DEFAULT_EMAIL;
      input.autocomplete = "email";

      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Logga in med Google";
      button.style.cssText =
        "display:inline-flex;align-items:center;gap:.5rem;min-height:40px;margin-top:.5rem;padding:0 1.25rem;" +
        "border:1px solid #dadce0;border-radius:20px;background:#fff;color:#3c4043;font:500 0.95rem system-ui,sans-serif;" +
        "cursor:pointer";

      var problem = document.createElement("p");
      problem.setAttribute("role", "status");
      problem.style.cssText = "margin:.5rem 0 0;color:#b3261e";

      button.addEventListener("click", function () {
        if (!settings) {
          problem.textContent = "Googles inloggning är inte initierad.";
          return;
        }
        problem.textContent = "";
        button.disabled = true;
        var callback = settings.callback;
        signIn(input.value.trim())
          .then(function (credential) {
            callback({ credential: credential, select_by: "btn" });
          })
          .catch(function (err) {
            problem.textContent = err && err.message ? err.message : String(err);
          })
          .finally(function () {
            button.disabled = false;
          });
      });

      box.append(field("Google-konto (utveckling)", input), button, problem);
      parent.replaceChildren(box);
    },

    prompt: function () {},
    cancel: function () {},
    disableAutoSelect: function () {},
  };

  window.google = window.google || {};
  window.google.accounts = window.google.accounts || {};
  window.google.accounts.id = id;
})();
`;
