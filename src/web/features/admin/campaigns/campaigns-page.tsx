/**
 * /admin/kampanjkoder: the season's campaign codes (built-in and the organisers' own), how often each has been
 * used, and switching one off or on; plus the form for a new code. A lazy chunk inside the admin shell.
 */
import { stockholmDate } from "../../../../shared/stockholm";
import { Button } from "../../../components/ui/button";
import { useDocumentTitle } from "../../../lib/use-document-title";
import { useServerClock } from "../../../lib/config/server-clock";
import { useCampaigns, type Campaign } from "./api/get-campaigns";
import { useSetCampaignEnabled } from "./api/set-campaign-enabled";
import { campaignStatus, RULE_WORDS, usesText } from "./campaign-words";
import { CreateCampaignForm } from "./create-campaign-form";
import "./campaigns.css";

export default function CampaignsPage() {
  useDocumentTitle("Kampanjkoder");
  const campaigns = useCampaigns();

  return (
    <section className="page campaigns">
      <h2>Kampanjkoder</h2>
      <p className="muted">
        Koder som besökare anger vid betalningen. De inbyggda kommer från hemligheten CAMPAIGN_CODES (se README:
        säsongskonfigurationen); egna koder skapar du nedan. En avstängd kod ger ordinarie pris.
      </p>
      {campaigns.isPending && <p role="status">Hämtar kampanjkoder …</p>}
      {campaigns.isError && (
        <div className="alert alert-error" role="alert">
          <p>{campaigns.error.message}</p>
          <Button size="small" onClick={() => void campaigns.refetch()}>
            Försök igen
          </Button>
        </div>
      )}
      {campaigns.data && campaigns.data.configErrors.length > 0 && (
        <div className="alert alert-error" role="alert">
          <p>
            <strong>De inbyggda kampanjkoderna gäller inte</strong>: hemligheten CAMPAIGN_CODES kunde inte läsas. Rätta
            den och lägg in den igen med <code>npx wrangler secret put CAMPAIGN_CODES</code>.
          </p>
          <ul>
            {campaigns.data.configErrors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {campaigns.data && <CampaignList campaigns={campaigns.data.campaigns} />}
      <CreateCampaignForm />
    </section>
  );
}

function CampaignList({ campaigns }: { campaigns: Campaign[] }) {
  const today = stockholmDate(useServerClock().now());
  const toggle = useSetCampaignEnabled();
  if (campaigns.length === 0) return <p>Inga kampanjkoder ännu.</p>;
  return (
    <>
      {toggle.isError && (
        <p className="alert alert-error" role="alert">
          {toggle.error.message}
        </p>
      )}
      <ul className="campaign-list" aria-label="Kampanjkoder">
        {campaigns.map((c) => {
          const status = campaignStatus(c, today);
          const busy = toggle.isPending && toggle.variables?.code === c.code;
          return (
            <li key={c.code} className={`campaign-card${c.disabled ? " campaign-disabled" : ""}`}>
              <div className="campaign-head">
                <span className="campaign-code">{c.code}</span>
                <span className={`campaign-status status-${status.toLowerCase()}`}>{status}</span>
                {c.builtin && <span className="campaign-builtin">Inbyggd</span>}
              </div>
              <dl className="campaign-facts">
                <div>
                  <dt>Regel</dt>
                  <dd>{RULE_WORDS[c.rule]}</dd>
                </div>
                <div>
                  <dt>Giltig t.o.m.</dt>
                  <dd>{c.validUntil ?? "Hela säsongen"}</dd>
                </div>
                <div>
                  <dt>Använd</dt>
                  <dd>{usesText(c)}</dd>
                </div>
                <div>
                  <dt>Betalda</dt>
                  <dd>{c.paidOrders}</dd>
                </div>
                {c.note && (
                  <div>
                    <dt>Anteckning</dt>
                    <dd>{c.note}</dd>
                  </div>
                )}
              </dl>
              <Button
                size="small"
                loading={busy}
                disabled={toggle.isPending}
                onClick={() => toggle.mutate({ code: c.code, enabled: c.disabled })}
                aria-label={`${c.disabled ? "Aktivera" : "Stäng av"} ${c.code}`}
              >
                {c.disabled ? "Aktivera" : "Stäng av"}
              </Button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
