/**
 * The season config: everything an organiser changes once a year, in one typed, validated place.
 * Edit, run the tests, deploy (README and docs/season.md: "Configuration per season"). It seeds the season's races in D1.
 *
 * Values from the spec: race day 2025-09-13, price tiers and their cut-off, the registration-button cut-off,
 * start times. Values the spec leaves open are ours and documented here:
 * - lastRegistration: 2025-09-12 23:59 Stockholm (the day before the race; on-site registration after that).
 * - on-site (box-office) price: adult 300, child 200 (above the late tier: paying on the day costs a little more).
 * - bib ranges per distance: 0.8 → 1–199, 1.6 → 200–399, 2.8 → 400–599, 5.6 → 600–999.
 * - companionPrice: 0 kr for a parent running with their child without competing (issue 28; spec overview:
 *   "Parents may run with their children without competing"), counted as neither child nor adult.
 * - childSafePublishing: off, so a new season publishes every time as the spec does (issue 28; the README's
 *   season guide explains the federation's rule and recommends turning it on for a club that follows it).
 * - finishPhotos: on; the site's terms say finish photos are taken for timing and kept 30 days (issue 44).
 *
 * This is the part of the season config the browser may import. The built-in campaign codes are the other part,
 * Worker-only (src/worker/campaigns/builtin-campaigns.ts: the CAMPAIGN_CODES secret in production), because their
 * words are secrets: nothing here may name one, or it would be in every public page's JavaScript.
 */

/** A wall-clock moment in Europe/Stockholm, 'YYYY-MM-DDTHH:MM' (seconds optional). */
export type StockholmDateTime = string;

export type DistanceKm = "0.8" | "1.6" | "2.8" | "5.6";
/**
 * How a campaign code prices an order (shared/pricing.ts campaignTotal). 'epassi' is the code of a wellness-benefit
 * (Epassi) invitation: one runner's fee is already paid (src/worker/epassi/epassi.ts makes these codes, single use). The rules
 * are public; the code words that carry them are not (see above).
 */
export const CAMPAIGN_RULES = ["flat50", "free", "minus50", "epassi"] as const;
export type CampaignRule = (typeof CAMPAIGN_RULES)[number];

export interface PriceTier {
  adult: number;
  child: number;
}

export interface SeasonRace {
  distance: DistanceKm;
  /** 'HH:MM' Stockholm time on race day. */
  startTime: string;
  bibRange: [number, number];
  openForReg: boolean;
}

export interface Season {
  year: number;
  /** 'YYYY-MM-DD' */
  raceDay: string;
  /** Fees up to and including this moment are the early tier. */
  earlyPriceUntil: StockholmDateTime;
  earlyPrice: PriceTier;
  latePrice: PriceTier;
  onSitePrice: PriceTier;
  /** Registration (new registrations and changes) closes after this moment. */
  lastRegistration: StockholmDateTime;
  /** The top bar's registration button shows until this moment. */
  registrationButtonUntil: StockholmDateTime;
  adultAge: number;
  /**
   * What a parent running with their child without competing ('Springer med barn (ej tävlande)') pays, whole
   * kronor, online and at the box office alike; 0 is free. Not a child's or an adult's fee, and no campaign code
   * changes it (shared/companion.ts, shared/pricing.ts; issue 28, item 6).
   */
  companionPrice: number;
  /**
   * Child-safe publishing (shared/child-safe.ts): when true, no time and no placing of a runner aged 11 or under
   * is published (start lists, results, the public CSV/JSON, the spectators' view); they show 'Fullföljt' and are
   * not ranked. The family still sees their own child's time, and the diploma has it.
   */
  childSafePublishing: boolean;
  /**
   * Målfoto (shared/finish-photos.ts): the timing phones may keep a photo of each finish for the organisers (admins
   * only, deleted 30 days after race day). False: the race screen has no camera switch and the Worker refuses
   * uploads.
   */
  finishPhotos: boolean;
  races: SeasonRace[];
  contactEmail: string;
  siteName: string;
}

export const SEASON: Season = {
  year: 2025,
  raceDay: "2025-09-13",
  earlyPriceUntil: "2025-09-06T23:59:59",
  earlyPrice: { adult: 150, child: 100 },
  latePrice: { adult: 250, child: 150 },
  onSitePrice: { adult: 300, child: 200 },
  lastRegistration: "2025-09-12T23:59:59",
  registrationButtonUntil: "2025-09-13T12:00:00",
  adultAge: 16,
  companionPrice: 0,
  childSafePublishing: false,
  finishPhotos: true,
  races: [
    { distance: "0.8", startTime: "11:00", bibRange: [1, 199], openForReg: true },
    { distance: "1.6", startTime: "11:15", bibRange: [200, 399], openForReg: true },
    { distance: "2.8", startTime: "11:45", bibRange: [400, 599], openForReg: true },
    { distance: "5.6", startTime: "11:45", bibRange: [600, 999], openForReg: true },
  ],
  contactEmail: "info@example.se",
  siteName: "Byloppet",
};
