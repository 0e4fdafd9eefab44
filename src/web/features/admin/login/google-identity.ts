/**
 * Google Identity Services, loaded on the sign-in page only (no Google script anywhere else on the site).
 * In development nothing may reach the internet, so the page loads the Worker's stand-in at /dev/gsi/client
 * instead: the same API, whose button signs a development account in through the server's real verification.
 */
const GOOGLE_GSI_SRC = "https://accounts.google.com/gsi/client";
const DEV_GSI_SRC = "/dev/gsi/client";

/** Which script provides `google.accounts.id`: decided by the server's development mode and nothing else. */
export function gsiScriptSrc(devMode: boolean): string {
  return devMode ? DEV_GSI_SRC : GOOGLE_GSI_SRC;
}

export interface GoogleCredentialResponse {
  credential: string;
  select_by?: string;
}

export interface GoogleIdentity {
  initialize(options: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    ux_mode?: "popup" | "redirect";
    auto_select?: boolean;
  }): void;
  renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
  prompt(): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleIdentity } };
  }
}

/** One load per script for the page's lifetime; a failed load is forgotten so a remount can try again. */
const loading = new Map<string, Promise<GoogleIdentity>>();

export function loadGoogleIdentity(src: string): Promise<GoogleIdentity> {
  let pending = loading.get(src);
  if (!pending) {
    pending = new Promise<GoogleIdentity>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = () => {
        const id = window.google?.accounts.id;
        if (id) resolve(id);
        else reject(new Error("Googles inloggning gick inte att starta."));
      };
      script.onerror = () => {
        loading.delete(src);
        script.remove();
        reject(new Error("Kunde inte ladda Googles inloggning. Kontrollera anslutningen och ladda om sidan."));
      };
      document.head.appendChild(script);
    });
    loading.set(src, pending);
  }
  return pending;
}
