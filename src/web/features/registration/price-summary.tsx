/**
 * The price: children and adults at the current tier's prices, adults running with a child (shared/companion.ts)
 * apart at the season's companion price, the total, and what a valid campaign code makes of it (spec §3 "Derived
 * values", §9). The server recomputes all of it at booking; this is the preview.
 */
import type { AgeCounts } from "../../../shared/age";
import type { PriceTier } from "../../../shared/season";
import { formatKr } from "../../lib/format";

export function PriceSummary({
  counts,
  tier,
  adultAge,
  companionPrice = 0,
  campaign,
}: {
  counts: AgeCounts;
  tier: PriceTier;
  adultAge: number;
  companionPrice?: number;
  /** A valid campaign's code and price, when one applies. */
  campaign: { code: string; price: number } | null;
}) {
  const medBarn = counts.medBarn ?? 0;
  const total = counts.barn * tier.child + counts.vuxna * tier.adult + medBarn * companionPrice;
  return (
    <dl className="price-summary" aria-label="Pris">
      <div>
        <dt>
          Barn <small>(under {adultAge} år)</small>
        </dt>
        <dd>
          {counts.barn} × {formatKr(tier.child)}
        </dd>
      </div>
      <div>
        <dt>Vuxna</dt>
        <dd>
          {counts.vuxna} × {formatKr(tier.adult)}
        </dd>
      </div>
      {medBarn > 0 && (
        <div>
          <dt>
            Springer med barn <small>(ej tävlande)</small>
          </dt>
          <dd>
            {medBarn} × {formatKr(companionPrice)}
          </dd>
        </div>
      )}
      <div className="price-total">
        <dt>Totalt</dt>
        <dd>
          {campaign ? <s aria-label={`Ordinarie pris ${formatKr(total)}`}>{formatKr(total)}</s> : formatKr(total)}
        </dd>
      </div>
      {campaign && (
        <div className="price-total price-campaign">
          <dt>Med kampanjkod {campaign.code}</dt>
          <dd>{formatKr(campaign.price)}</dd>
        </div>
      )}
    </dl>
  );
}
