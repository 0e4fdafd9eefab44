import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { configQueryOptions } from "../../lib/config/get-config";
import { useDocumentTitle } from "../../lib/use-document-title";
import { logout } from "./logout";

/** /logout: call the logout endpoint, refresh the config, then replace the route with '/' (spec). */
export function LogoutPage() {
  useDocumentTitle("Loggar ut");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const started = useRef(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // StrictMode runs effects twice in development; one logout call is enough.
    if (started.current) return;
    started.current = true;
    logout()
      .then(async () => {
        await queryClient.invalidateQueries({ queryKey: configQueryOptions().queryKey });
        navigate("/", { replace: true });
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : "Utloggningen misslyckades."));
  }, [queryClient, navigate]);

  return (
    <section className="page">
      <h1>Logga ut</h1>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : (
        <p role="status">Loggar ut…</p>
      )}
    </section>
  );
}
