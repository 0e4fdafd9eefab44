/**
 * /admin/login (a lazy chunk): the Google button (Google Identity Services, loaded on this page only), and in
 * development also a plain e-mail form against /admin/api/dev-login. In development the button comes from the
 * Worker's stand-in for Google's script (/dev/gsi/client), so nothing loads from the internet, while the page's
 * path from Google's callback through POST /admin/api/authenticate is exactly production's.
 * 401 → 'Ej admin!'; success → fresh config → /admin.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Navigate, useNavigate } from "react-router";
import { PageLoading } from "../../../components/layout/page-loading";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { configQueryOptions, useConfig } from "../../../lib/config/get-config";
import { authenticate } from "./authenticate";
import { devLogin } from "./dev-login";
import { gsiScriptSrc, loadGoogleIdentity } from "./google-identity";

const NOT_ADMIN = "Ej admin!";

function signInError(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) return NOT_ADMIN;
  return err instanceof Error ? err.message : "Inloggningen misslyckades.";
}

export default function AdminLoginPage() {
  useDocumentTitle("Logga in");
  const config = useConfig();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  const onSignedIn = async () => {
    // Wait for the new config so the admin shell sees isAdmin and does not bounce back here.
    await queryClient.invalidateQueries({ queryKey: configQueryOptions().queryKey });
    navigate("/admin", { replace: true });
  };

  if (!config.data) {
    return config.isError ? (
      <section className="page">
        <p className="alert alert-error" role="alert">
          {config.error.message}
        </p>
      </section>
    ) : (
      <PageLoading />
    );
  }
  if (config.data.isAdmin) return <Navigate to="/admin" replace />;

  return (
    <section className="page login-page">
      <h1>Logga in som arrangör</h1>
      <GoogleSignIn
        clientId={config.data.googleClientId}
        scriptSrc={gsiScriptSrc(config.data.devMode)}
        onSignedIn={onSignedIn}
        onError={(e) => setError(signInError(e))}
        clearError={() => setError(null)}
      />
      {config.data.devMode && (
        <DevSignIn
          onSignedIn={onSignedIn}
          onError={(e) => setError(signInError(e))}
          clearError={() => setError(null)}
        />
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

interface SignInProps {
  onSignedIn: () => Promise<void>;
  onError: (err: unknown) => void;
  clearError: () => void;
}

function GoogleSignIn({
  clientId,
  scriptSrc,
  onSignedIn,
  onError,
  clearError,
}: SignInProps & { clientId: string; scriptSrc: string }) {
  const buttonRef = useRef<HTMLDivElement>(null);
  // Google calls back long after this render; it must reach the latest handlers.
  const callbacks = useRef({ onSignedIn, onError, clearError });
  useEffect(() => {
    callbacks.current = { onSignedIn, onError, clearError };
  });

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity(scriptSrc)
      .then((google) => {
        if (cancelled || !buttonRef.current) return;
        google.initialize({
          client_id: clientId,
          callback: ({ credential }) => {
            callbacks.current.clearError();
            authenticate(credential)
              .then(() => callbacks.current.onSignedIn())
              .catch((err: unknown) => callbacks.current.onError(err));
          },
        });
        google.renderButton(buttonRef.current, { theme: "outline", size: "large", shape: "pill", locale: "sv" });
      })
      .catch((err: unknown) => !cancelled && callbacks.current.onError(err));
    return () => {
      cancelled = true;
    };
  }, [clientId, scriptSrc]);

  return (
    <>
      <p>Logga in med ditt Google-konto. Bara arrangörer med behörighet kommer in.</p>
      <div ref={buttonRef} className="google-button" />
    </>
  );
}

function DevSignIn({ onSignedIn, onError, clearError }: SignInProps) {
  const [email, setEmail] = useState("arrangor@example.se");
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    clearError();
    setBusy(true);
    try {
      await devLogin(email.trim().toLowerCase());
      await onSignedIn();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={submit}>
      <p className="alert alert-info">
        Utvecklingsläge: logga in med bara en e-postadress, utan Google. Adresser på adminlistan blir admin.
      </p>
      <Field label="E-postadress">
        {(control) => (
          <input
            {...control}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <Button type="submit" variant="primary" loading={busy}>
        Logga in (utveckling)
      </Button>
    </form>
  );
}
