/** The refund form's check of the typed amount, with the server's rule: whole kronor, 1 … what is left. */
import { kronor } from "./overview-words";

/** The amount as typed: whole kronor within 1 … left, or the Swedish reason it is not. */
export function checkRefundAmount(
  text: string,
  left: number,
): { ok: true; amount: number } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { ok: false, error: "Ange beloppet i hela kronor." };
  const amount = Number(trimmed);
  if (amount < 1) return { ok: false, error: "Beloppet måste vara minst 1 kr." };
  if (amount > left) return { ok: false, error: `Högst ${kronor(left)} finns kvar att återbetala.` };
  return { ok: true, amount };
}
