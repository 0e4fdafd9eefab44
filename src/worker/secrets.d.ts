// Secrets are not in wrangler.toml, so `wrangler types` cannot see them (README: "Deploy to Cloudflare").
interface Env {
  /** API key of the HTTP e-mail provider used for bulk mail (EMAIL_TRANSPORT = "resend"). */
  EMAIL_API_KEY?: string;
  /**
   * The season's built-in campaign codes, a JSON object of word → {rule, validUntil?, maxUses?}
   * (src/worker/campaigns/builtin-campaigns.ts). Production reads its words from here alone.
   */
  CAMPAIGN_CODES?: string;
}
