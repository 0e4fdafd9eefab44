/** The campaign code input: upper-cased as typed (spec §5) and re-validated whenever it changes (spec §4). */
import type { CampaignResult } from "./api/validate-kampanj";
import { formatKr } from "../../lib/format";

export function CampaignField({
  value,
  onChange,
  checking,
  result,
}: {
  value: string;
  onChange: (value: string) => void;
  checking: boolean;
  /** The server's evaluation of the current code; null when none (empty code, or the check failed: no discount). */
  result: CampaignResult | null;
}) {
  let status: string | null = null;
  if (value.trim() === "") status = null;
  else if (checking) status = "Kontrollerar koden …";
  else if (result?.valid) status = `Koden gäller! Att betala: ${formatKr(result.price)}`;
  else if (result?.usedUp) {
    status = "Koden hann användas av någon annan efter att din betalning misslyckades – ordinarie pris.";
  }
  // Spec §8: a failed campaign is no discount; the page then books without the code.
  else if (result) status = "Koden gäller inte – ordinarie pris.";
  else status = "Koden kunde inte kontrolleras – ordinarie pris.";
  return (
    <div className="field campaign-field">
      <label className="field-label" htmlFor="campaign-code">
        Kampanjkod
      </label>
      <input
        id="campaign-code"
        name="kampanj"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={40}
        value={value}
        onChange={(e) => onChange(e.target.value.toUpperCase())}
        aria-describedby="campaign-status"
      />
      <span
        id="campaign-status"
        className={`field-hint${result?.valid && !checking ? " campaign-valid" : ""}`}
        role="status"
        aria-live="polite"
      >
        {status ?? "Har du en kod från oss, till exempel från friskvårdsbidraget? Skriv den här."}
      </span>
    </div>
  );
}
