/**
 * Google Identity Services, loaded on the sign-in page only (no Google script anywhere else on the site, and
 * none at all in development mode, where nothing may reach the internet).
 */
const GIS_SRC = "https://accounts.google.com/gsi/client";

export interface GoogleCredentialResponse {
  credential: string;
}

export interface GoogleIdentity {
  initialize(options: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    ux_mode?: "popup" | "redirect";
    auto_select?: boolean;
  }): void;
  renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleIdentity } };
  }
}

let loading: Promise<GoogleIdentity> | undefined;

export function loadGoogleIdentity(): Promise<GoogleIdentity> {
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = GIS_SRC;
    script.async = true;
    script.onload = () => {
      const id = window.google?.accounts.id;
      if (id) resolve(id);
      else reject(new Error("Googles inloggning gick inte att starta."));
    };
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error("Kunde inte ladda Googles inloggning. Kontrollera anslutningen och ladda om sidan."));
    };
    document.head.appendChild(script);
  });
  return loading;
}
