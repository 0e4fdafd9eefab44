/**
 * A snackbar: one short message at the bottom of the screen that goes away by itself (spec, admin area §8: "Snackbars
 * last 5000 ms") or with its close button. Errors are announced at once (role=alert), the rest politely
 * (role=status). `useSnackbar()` holds the current message; a newer one replaces it and restarts the time.
 */
import { useCallback, useEffect, useState } from "react";
import "./snackbar.css";

export type SnackbarSeverity = "success" | "info" | "warning" | "error";

export const SNACKBAR_DURATION_MS = 5000;

export interface SnackbarMessage {
  /** New for every message, so the same text shown twice restarts the time. */
  id: number;
  text: string;
  severity: SnackbarSeverity;
}

let nextId = 1;

export function useSnackbar() {
  const [message, setMessage] = useState<SnackbarMessage | null>(null);
  const show = useCallback((text: string, severity: SnackbarSeverity = "info") => {
    setMessage({ id: nextId++, text, severity });
  }, []);
  const close = useCallback(() => setMessage(null), []);
  return { message, show, close };
}

export interface SnackbarProps {
  message: SnackbarMessage | null;
  onClose: () => void;
  durationMs?: number;
}

export function Snackbar({ message, onClose, durationMs = SNACKBAR_DURATION_MS }: SnackbarProps) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onClose, durationMs);
    return () => clearTimeout(timer);
  }, [message, onClose, durationMs]);

  if (!message) return null;
  return (
    <div
      className={`snackbar snackbar-${message.severity}`}
      role={message.severity === "error" ? "alert" : "status"}
      data-snackbar-id={message.id}
    >
      <span className="snackbar-text">{message.text}</span>
      <button type="button" className="snackbar-close" aria-label="Stäng meddelandet" onClick={onClose}>
        ×
      </button>
    </div>
  );
}
