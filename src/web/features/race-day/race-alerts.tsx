/**
 * The screen's messages, each once, until dismissed: failed calls in the server's words, and notices of what the
 * server did with a press ('Till granskning: …', the same start as another phone).
 */
import { useCallback, useState } from "react";
import { CloseIcon } from "../../components/ui/icons";

export type Tone = "error" | "info";

export interface Message {
  text: string;
  tone: Tone;
}

export function messageOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Något gick fel. Försök igen.";
}

export function useMessages() {
  const [messages, setMessages] = useState<Message[]>([]);
  const report = useCallback(
    (text: string, tone: Tone = "error") =>
      setMessages((list) => (list.some((m) => m.text === text) ? list : [...list, { text, tone }])),
    [],
  );
  const clear = useCallback((tone: Tone) => setMessages((list) => list.filter((m) => m.tone !== tone)), []);
  return { messages, report, clear };
}

export function RaceAlerts({ messages, onClear }: { messages: readonly Message[]; onClear: (tone: Tone) => void }) {
  return (
    <>
      {(["error", "info"] as const).map((tone) => {
        const shown = messages.filter((m) => m.tone === tone);
        if (shown.length === 0) return null;
        return (
          <div key={tone} className={`alert alert-${tone} race-alert`} role={tone === "error" ? "alert" : "status"}>
            <ul>
              {shown.map((m) => (
                <li key={m.text}>{m.text}</li>
              ))}
            </ul>
            <button
              type="button"
              className="race-alert-close"
              onClick={() => onClear(tone)}
              aria-label={tone === "error" ? "Stäng felmeddelandet" : "Stäng meddelandet"}
            >
              <CloseIcon size={20} />
            </button>
          </div>
        );
      })}
    </>
  );
}
