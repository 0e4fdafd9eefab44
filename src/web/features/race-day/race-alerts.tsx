/** The screen's error messages from failed calls, each once, in the server's words, until dismissed. */
import { useCallback, useState } from "react";
import { CloseIcon } from "../../components/ui/icons";

export function messageOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Något gick fel. Försök igen.";
}

export function useMessages() {
  const [messages, setMessages] = useState<string[]>([]);
  const report = useCallback(
    (message: string) => setMessages((list) => (list.includes(message) ? list : [...list, message])),
    [],
  );
  const clear = useCallback(() => setMessages([]), []);
  return { messages, report, clear };
}

export function RaceAlerts({ messages, onClear }: { messages: readonly string[]; onClear: () => void }) {
  if (messages.length === 0) return null;
  return (
    <div className="alert alert-error race-alert" role="alert">
      <ul>
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
      <button type="button" className="race-alert-close" onClick={onClear} aria-label="Stäng felmeddelandet">
        <CloseIcon size={20} />
      </button>
    </div>
  );
}
