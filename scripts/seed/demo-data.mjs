/**
 * The development demo data (DESIGN.md §10: development ships generated demo data with fake names).
 *
 * `buildDemoData()` returns plain rows keyed by D1 column name; `demoSql(data)` turns them into one SQL script
 * that first empties the tables it fills, so applying it again gives the same state. Everything comes from one
 * seeded PRNG: the same data on every machine and every run.
 *
 * The season values below mirror src/shared/season.ts (this is plain Node, no TypeScript);
 * test/shared/seed.test.ts fails if they drift apart.
 *
 * What makes it believable (issue 28), each held by a test:
 * - the site's own race timing begins with the demo season: earlier seasons have registrations, payments and bibs,
 *   and their results are imported files (2014 up to the season before), so no past race stands in the start lists
 *   as ended with nobody in the finish while /resultat has that year;
 * - everything happened before the demo's clock (`npm start`'s default NOW, scripts/lib/settings.mjs);
 * - nobody's name is there twice in one race (a household member's name is unique among all of them, and the
 *   people an imported year adds are unique within their distance).
 */
import { galleryPlan, galleryUrl } from "./gallery-plan.mjs";
import { CLUBS, COMPANIES, FEMALE, MALE, asciiSlug, surname } from "./names.mjs";
import { createRandom } from "./random.mjs";

export const SEED = 20250913;
export const DEMO_SEASON = 2025;
/** Earlier seasons with registrations and payments in D1 (race day: the second Saturday of September). */
export const RACE_DAYS = { 2022: "2022-09-10", 2023: "2023-09-09", 2024: "2024-09-14", 2025: "2025-09-13" };
export const RESULT_YEARS = { first: 2014, last: 2024 };
/** `npm start`'s clock when nothing else is asked for (scripts/lib/settings.mjs DEFAULT_NOW): nothing demo is later. */
export const DEMO_NOW = "2025-08-25T10:00:00";

export const DISTANCES = ["0.8", "1.6", "2.8", "5.6"];
/** @typedef {"0.8" | "1.6" | "2.8" | "5.6"} DistanceKm */
/** @type {Record<DistanceKm, string>} */
export const START_TIMES = { 0.8: "11:00", 1.6: "11:15", 2.8: "11:45", 5.6: "11:45" };
/** @type {Record<DistanceKm, [number, number]>} */
export const BIB_RANGES = { 0.8: [1, 199], 1.6: [200, 399], 2.8: [400, 599], 5.6: [600, 999] };
export const PRICES = { early: { adult: 150, child: 100 }, late: { adult: 250, child: 150 } };
export const ADULT_AGE = 16;
/** Plausible finishing times per distance (ms): 0.8 km 2:40–6:00 … 5.6 km 19:00–45:00. */
/** @type {Record<DistanceKm, [number, number]>} */
export const TIME_RANGES = {
  0.8: [160_000, 360_000],
  1.6: [330_000, 720_000],
  2.8: [600_000, 1_320_000],
  5.6: [1_140_000, 2_700_000],
};
const PAYEE_ALIAS = "1234679304";
const ORGANISER = "arrangor@example.se";
const SITE_NAME = "Byloppet";

/**
 * Stockholm wall time → epoch ms. Every demo moment lies between April and October, inside summer time
 * (CEST, UTC+2), so a fixed offset is exact here; anything outside that window is refused.
 */
export function cest(wallTime) {
  const month = Number(wallTime.slice(5, 7));
  if (!(month >= 4 && month <= 10)) throw new RangeError(`Demodata utanför sommartid: ${wallTime}`);
  const ms = Date.parse(`${wallTime}+02:00`);
  if (Number.isNaN(ms)) throw new RangeError(`Ogiltig tid: ${wallTime}`);
  return ms;
}

/** 'YYYY-MM-DD' ± days (calendar arithmetic, no time zone). */
function addDays(date, n) {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * The development Worker's demo campaign codes (src/worker/dev/demo-campaigns.ts) as their rows: the same rule, end
 * and cap (a free code is capped at 20 uses by default: FREE_CODE_DEFAULT_MAX_USES). Development data only.
 */
export const BUILTIN_CAMPAIGNS = [
  { code: "VANLOPP50", rule: "flat50", validUntil: null, maxUses: null },
  { code: "FRIBILJETT", rule: "free", validUntil: null, maxUses: 20 },
  // Valid until 2025-10-01T23:59:59 Stockholm, inclusive; stored as the last valid millisecond.
  { code: "TIDIGFAGEL", rule: "minus50", validUntil: cest("2025-10-01T23:59:59.999"), maxUses: null },
];
export const ORGANISER_CAMPAIGN = {
  code: "KLUBBEN25",
  rule: "minus50",
  validUntil: cest("2025-09-12T23:59:59.999"),
  maxUses: 15,
  note: "Till medlemmarna i IK Ekbacken",
};
const CAMPAIGN_RULES = Object.fromEntries([...BUILTIN_CAMPAIGNS, ORGANISER_CAMPAIGN].map((c) => [c.code, c.rule]));

const FAILURES = [
  { status: "DECLINED", errorCode: "RF07", errorMessage: "Betalningen nekades" },
  { status: "ERROR", errorCode: "BANKIDCL", errorMessage: "Betalaren avbröt BankID-signeringen" },
  { status: "ERROR", errorCode: "TM01", errorMessage: "Betalningen godkändes inte i tid" },
  { status: "ERROR", errorCode: "FF10", errorMessage: "Banken kunde inte genomföra betalningen" },
];

/** race-YYMMDD-NN, NN = hundreds of metres (admin spec). */
export function raceId(raceDay, distance) {
  const tenths = Math.round(Number(distance) * 10);
  return `race-${raceDay.slice(2).replaceAll("-", "")}-${String(tenths).padStart(2, "0")}`;
}

function clamp01(x) {
  return Math.min(1, Math.max(0, x));
}

/** A finishing time for a runner of this fitness (0 fastest … 1 slowest) and age. */
function finishTime(random, distance, fitness, age) {
  const [min, max] = TIME_RANGES[distance];
  const agePenalty = age < 12 ? (12 - age) / 8 : age > 45 ? (age - 45) / 30 : 0;
  const f = clamp01(0.62 * fitness + 0.25 * agePenalty + 0.13 * random.next());
  return Math.min(max, Math.max(min, Math.round(min + f * (max - min) + random.int(0, 999))));
}

/** Which distance a runner of this age picks; `u` is the runner's own fixed preference (0–1). */
function distanceFor(age, u) {
  if (age <= 7) return "0.8";
  if (age <= 10) return u < 0.5 ? "0.8" : "1.6";
  if (age <= 13) return u < 0.6 ? "1.6" : "2.8";
  if (age < ADULT_AGE) return u < 0.2 ? "1.6" : u < 0.8 ? "2.8" : "5.6";
  return u < 0.05 ? "0.8" : u < 0.15 ? "1.6" : u < 0.45 ? "2.8" : "5.6";
}

/**
 * A first name for a new person with this surname that nobody of `taken` (full names) has: the same name twice
 * in one race reads like a mistake in the start list.
 */
function freshFirstname(random, gender, lastname, taken) {
  const names = gender === "f" ? FEMALE : MALE;
  let firstname = random.pick(names);
  for (let tries = 0; taken?.has(`${firstname} ${lastname}`) && tries < 50; tries++) firstname = random.pick(names);
  taken?.add(`${firstname} ${lastname}`);
  return firstname;
}

function person(random, gender, lastname, birthYear, extra = {}, taken = null) {
  const firstname = freshFirstname(random, gender, lastname, taken);
  const adult = DEMO_SEASON - birthYear >= ADULT_AGE;
  const byGender = gender === "f" ? "Dam" : "Herr";
  return {
    firstname,
    lastname,
    gender,
    birthYear,
    group: random.chance(adult ? 0.8 : 0.45) ? byGender : "Ingen",
    fitness: random.next(),
    preference: random.next(),
    company: "",
    ...extra,
  };
}

/**
 * Households that register over the years under one e-mail: families, single parents, couples and lone runners.
 * `firstYear` is their first season; afterwards they come back most years.
 */
function makeHouseholds(random) {
  const households = [];
  const emails = new Set();
  const names = new Set();
  const firstYears = [
    ...Array(44).fill(2022),
    ...Array(16).fill(2023),
    ...Array(16).fill(2024),
    ...Array(24).fill(2025),
  ];
  for (const firstYear of firstYears) {
    const lastname = surname(random);
    const roll = random.next();
    const kind = roll < 0.55 ? "family" : roll < 0.7 ? "single-parent" : roll < 0.85 ? "couple" : "runner";
    const g1 = random.chance(0.55) ? "f" : "m";
    const members = [person(random, g1, lastname, DEMO_SEASON - random.int(25, 50), {}, names)];
    if (kind === "family" || kind === "couple") {
      const other = random.chance(0.2) ? surname(random) : lastname;
      const age2 = Math.min(55, Math.max(25, DEMO_SEASON - members[0].birthYear + random.int(-4, 4)));
      members.push(person(random, g1 === "f" ? "m" : "f", other, DEMO_SEASON - age2, {}, names));
    }
    if (kind === "family" || kind === "single-parent") {
      const parentAge = DEMO_SEASON - members[0].birthYear;
      const kids = kind === "family" ? random.int(1, 3) : random.int(1, 2);
      for (let k = 0; k < kids; k++) {
        const age = random.int(4, Math.min(15, parentAge - 20));
        members.push(person(random, random.chance(0.5) ? "f" : "m", lastname, DEMO_SEASON - age, {}, names));
      }
    }
    const affiliation = random.next();
    const company = affiliation < 0.15 ? random.pick(CLUBS) : affiliation < 0.27 ? random.pick(COMPANIES) : "";
    for (const m of members) {
      const adult = DEMO_SEASON - m.birthYear >= ADULT_AGE;
      if (adult) m.company = company;
      else if (CLUBS.includes(company)) m.company = company;
    }
    let local = `${asciiSlug(members[0].firstname)}.${asciiSlug(members[0].lastname)}`;
    for (let n = 2; emails.has(local); n++) local = `${asciiSlug(members[0].firstname)}.${asciiSlug(lastname)}${n}`;
    emails.add(local);
    const phone = `4670${String(random.int(0, 9_999_999)).padStart(7, "0")}`;
    households.push({ email: `${local}@example.se`, firstYear, members, phone });
  }
  return { households, names };
}

/** A moment in a season's registration window, weighted towards August (when most families register). */
function registrationMoment(random, season) {
  // The demo season's registrations end the day before the demo's clock, so every payment is in the past.
  const windows =
    season === DEMO_SEASON
      ? [
          [0.2, `${season}-06-01`, 30],
          [0.15, `${season}-07-01`, 31],
          [0.65, `${season}-08-01`, Number(DEMO_NOW.slice(8, 10)) - 1],
        ]
      : [
          [0.15, `${season}-05-01`, 31],
          [0.15, `${season}-06-01`, 30],
          [0.1, `${season}-07-01`, 31],
          [0.45, `${season}-08-01`, 31],
          [0.15, `${season}-09-01`, 5],
        ];
  let roll = random.next();
  let chosen = windows[windows.length - 1];
  for (const w of windows) {
    if (roll < w[0]) {
      chosen = w;
      break;
    }
    roll -= w[0];
  }
  const day = addDays(chosen[1], random.int(0, chosen[2] - 1));
  const hh = String(random.int(7, 22)).padStart(2, "0");
  const mm = String(random.int(0, 59)).padStart(2, "0");
  const ss = String(random.int(0, 59)).padStart(2, "0");
  return cest(`${day}T${hh}:${mm}:${ss}`);
}

/** What an adult running with a child without competing costs (the season's companionPrice, src/shared/season.ts). */
export const COMPANION_PRICE = 0;
/** How many of the demo season's paid families have a parent running with a child without competing. */
const DEMO_COMPANIONS = 2;

function priceFor(season, now, runners, campaign) {
  const cutoff = cest(`${addDays(RACE_DAYS[season], -7)}T23:59:59.999`);
  const tier = now <= cutoff ? PRICES.early : PRICES.late;
  // A companion is counted apart, neither child nor adult (src/shared/age.ts countAges).
  const competing = runners.filter((r) => !r.companion);
  const vuxna = competing.filter((r) => r.age >= ADULT_AGE).length;
  const barn = competing.length - vuxna;
  const rule = campaign ? CAMPAIGN_RULES[campaign] : null;
  // Each runner's share of the order (src/shared/pricing.ts orderPrices), kept as the payment's runner_prices.
  const share = ({ age, companion }) => {
    if (companion) return COMPANION_PRICE;
    const listed = age >= ADULT_AGE ? tier.adult : tier.child;
    if (rule === "flat50") return 50;
    if (rule === "free") return 0;
    if (rule === "minus50") return Math.max(0, listed - 50);
    return listed;
  };
  const shares = runners.map(share);
  const amount = shares.reduce((sum, x) => sum + x, 0);
  return { amount, barn, vuxna, shares };
}

function swishPayment(random, base) {
  return {
    id: random.hex(32).toUpperCase(),
    currency: "SEK",
    origin: "registration",
    payee_alias: PAYEE_ALIAS,
    token: random.hex(32),
    callback_identifier: random.uuid(),
    payee_payment_reference: `${SITE_NAME.toUpperCase()}${base.season}${random.hex(8).toUpperCase()}`,
    message: `${SITE_NAME} ${base.season}`,
    payment_reference: null,
    payer_alias: null,
    error_code: null,
    error_message: null,
    date_paid: null,
    settled_at: null,
    ...base,
  };
}

/** What happens to a registration's payment, by season: most pay by Swish, some use a code, some never pay. */
function paymentPlan(random, season) {
  const roll = random.next();
  if (season === DEMO_SEASON) {
    if (roll < 0.04) return { kind: "none" };
    if (roll < 0.1) return { kind: "pending" };
    if (roll < 0.15) return { kind: "failed" };
    if (roll < 0.2) return { kind: "paid", campaign: "FRIBILJETT" };
    if (roll < 0.25) return { kind: "paid", campaign: "VANLOPP50" };
    if (roll < 0.3) return { kind: "paid", campaign: "TIDIGFAGEL" };
    if (roll < 0.34) return { kind: "paid", campaign: "KLUBBEN25" };
    return { kind: "paid", retried: random.chance(0.12) };
  }
  if (roll < 0.03) return { kind: "none" };
  if (roll < 0.06) return { kind: "failed" };
  if (roll < 0.09) return { kind: "paid", campaign: "FRIBILJETT" };
  return { kind: "paid", retried: random.chance(0.1) };
}

function buildSeason(random, season, households, previous) {
  const registrations = [];
  const participants = [];
  const payments = [];
  const raceDay = RACE_DAYS[season];
  const paidRunners = [];
  let companionsLeft = season === DEMO_SEASON ? DEMO_COMPANIONS : 0;

  for (const household of households) {
    if (household.firstYear > season) continue;
    const returning = household.firstYear < season;
    // Returning families come back most years; a family that skipped a year is a little less likely to.
    if (returning && !random.chance(previous.has(household.email) ? 0.78 : 0.55)) continue;
    const eligible = household.members.filter((m) => season - m.birthYear >= 4);
    let runners = eligible.filter(() => random.chance(0.85));
    if (runners.length === 0) runners = eligible.slice(0, 1);
    if (runners.length === 0) continue;
    runners = runners.slice(0, 4);

    const createdAt = registrationMoment(random, season);
    const registration = {
      id: random.uuid(),
      season,
      email: household.email,
      payid: null,
      version: runners.length,
      created_at: createdAt,
      updated_at: createdAt,
    };
    registrations.push(registration);

    const rows = runners.map((m) => {
      const age = season - m.birthYear;
      return {
        id: random.uuid(),
        registration_id: registration.id,
        season,
        firstname: m.firstname,
        lastname: m.lastname,
        age,
        company: m.company,
        distance: distanceFor(age, m.preference),
        group: m.group,
        bib: null,
        race_id: null,
        phone: null,
        created_at: createdAt,
        companion: 0,
        member: m,
      };
    });
    participants.push(...rows);

    const plan = paymentPlan(random, season);
    // A parent who runs with the family's youngest child without competing ('Springer med barn (ej tävlande)'):
    // the first few paid families (no code) with a child on 0.8 or 1.6 and an adult. No random number is drawn, so
    // everything else stays as it was.
    if (companionsLeft > 0 && plan.kind === "paid" && !plan.campaign && !plan.retried) {
      const child = rows.find((r) => r.age < ADULT_AGE && (r.distance === "0.8" || r.distance === "1.6"));
      const adult = rows.find((r) => r.age >= ADULT_AGE);
      if (child && adult) {
        adult.distance = child.distance;
        adult.companion = 1;
        companionsLeft--;
      }
    }
    if (plan.kind === "none") continue;
    const runnersPriced = rows.map((r) => ({ age: r.age, companion: r.companion === 1 }));
    const ids = JSON.stringify(rows.map((r) => r.id));
    let at = createdAt + random.int(2, 40) * 60_000;
    const base = (campaign) => {
      const { shares, ...price } = priceFor(season, at, runnersPriced, campaign);
      return {
        registration_id: registration.id,
        season,
        ...price,
        runner_prices: JSON.stringify(Object.fromEntries(rows.map((r, i) => [r.id, shares[i]]))),
        kampanj: campaign ?? null,
        participant_ids: ids,
        date_created: at,
      };
    };

    if (plan.kind === "failed" || plan.retried) {
      const failure = random.pick(FAILURES);
      const settled = at + random.int(20, 180) * 1000;
      payments.push(
        swishPayment(random, {
          ...base(null),
          status: failure.status,
          error_code: failure.errorCode,
          error_message: failure.errorMessage,
          payer_alias: failure.status === "DECLINED" ? household.phone : null,
          settled_at: settled,
        }),
      );
      at = settled + random.int(1, 10) * 60_000;
    }
    if (plan.kind === "pending") {
      payments.push(swishPayment(random, { ...base(null), status: "CREATED" }));
    }
    if (plan.kind === "paid") {
      if (plan.campaign && CAMPAIGN_RULES[plan.campaign] === "free") {
        payments.push({
          ...swishPayment(random, { ...base(plan.campaign), status: "PAID", date_paid: at, settled_at: at }),
          // Campaign payids are unique per order (schema.ts): 'kampanj_<CODE>_<unique>'.
          id: `kampanj_${plan.campaign}_${random.hex(8)}`,
          payee_alias: null,
          token: null,
          callback_identifier: null,
          payee_payment_reference: null,
          message: null,
        });
      } else {
        const paid = at + random.int(8, 90) * 1000;
        payments.push(
          swishPayment(random, {
            ...base(plan.campaign),
            status: "PAID",
            date_paid: paid,
            settled_at: paid,
            payment_reference: random.hex(32).toUpperCase(),
            payer_alias: household.phone,
          }),
        );
      }
      const selected = payments[payments.length - 1];
      paidRunners.push(...rows.map((r) => ({ row: r, paidAt: selected.date_paid })));
    }
    const selected = payments[payments.length - 1];
    registration.payid = selected.id;
    registration.updated_at = selected.date_created;
  }

  // Paid runners have a bib from their distance's range, in order of payment. This season's are in its races;
  // an earlier season was timed before the site's own race timing (its results are an imported file), so it has
  // no races in the index.
  const nextBib = Object.fromEntries(DISTANCES.map((d) => [d, BIB_RANGES[d][0]]));
  paidRunners.sort((a, b) => a.paidAt - b.paidAt || a.row.id.localeCompare(b.row.id));
  const timedHere = season === DEMO_SEASON;
  for (const { row } of paidRunners) {
    // A companion is in no race: no bib, no race (src/shared/companion.ts).
    if (row.companion) continue;
    row.bib = nextBib[row.distance]++;
    row.race_id = timedHere ? raceId(raceDay, row.distance) : null;
  }

  const races = timedHere
    ? DISTANCES.map((d) => ({
        part: raceId(raceDay, d),
        season,
        date: raceDay,
        distance: Math.round(Number(d) * 1000),
        start_time: START_TIMES[d],
        open_for_reg: 1,
        state: "",
        started: null,
      }))
    : [];

  return { registrations, participants, payments, races };
}

/** A runner who was not in D1 (paid at the box office, or before the site kept registrations). */
function walkUp(random, year, taken) {
  const gender = random.chance(0.5) ? "f" : "m";
  const age = random.chance(0.35) ? random.int(5, 15) : random.int(17, 70);
  const m = person(random, gender, surname(random), year - age, {}, taken);
  if (random.chance(0.2)) m.company = random.pick([...CLUBS, ...COMPANIES]);
  return { member: m, age, distance: distanceFor(age, m.preference) };
}

function klassOf(group) {
  return group === "Ingen" ? "" : group;
}

/**
 * Results 2014 up to the season before the demo's: the paid runners of the seasons in D1 plus walk-ups; 20–60
 * runners per distance, no name twice on one distance. `names`: every household member's (walk-ups take others).
 */
function buildResults(random, households, seasonRunners, names) {
  const results = [];
  for (let year = RESULT_YEARS.first; year <= RESULT_YEARS.last; year++) {
    const byDistance = Object.fromEntries(DISTANCES.map((d) => [d, []]));
    for (const p of seasonRunners[year] ?? []) {
      if (random.chance(0.94)) byDistance[p.distance].push({ member: p.member, age: p.age, bib: p.bib });
    }
    const walkUpNames = new Set(names);
    const pool = households.flatMap((h) => h.members).filter((m) => year - m.birthYear >= 4);
    for (const d of DISTANCES) {
      const target = Math.max(byDistance[d].length, random.int(20, 60));
      const used = new Set(byDistance[d].map((r) => r.member));
      let guard = 0;
      while (byDistance[d].length < target && guard++ < 5000) {
        // Before the site's own seasons, some of today's families already ran (returning-runner history).
        const fromPool = !seasonRunners[year] && random.chance(0.4);
        const candidate = fromPool
          ? (() => {
              const m = random.pick(pool);
              return { member: m, age: year - m.birthYear, distance: distanceFor(year - m.birthYear, m.preference) };
            })()
          : walkUp(random, year, walkUpNames);
        if (candidate.distance !== d || used.has(candidate.member)) continue;
        used.add(candidate.member);
        byDistance[d].push({ member: candidate.member, age: candidate.age, bib: null });
      }
      const [low, high] = BIB_RANGES[d];
      const taken = new Set(byDistance[d].map((r) => r.bib).filter((b) => b !== null));
      let next = low;
      const timed = byDistance[d].map((r) => {
        let bib = r.bib;
        if (bib === null) {
          while (taken.has(next)) next++;
          bib = next <= high ? next++ : null;
        }
        return { ...r, bib, timeMs: finishTime(random, d, r.member.fitness, r.age) };
      });
      timed.sort((a, b) => a.timeMs - b.timeMs);
      timed.forEach((r, i) => {
        results.push({
          year,
          distance: d,
          place: i + 1,
          name: `${r.member.firstname} ${r.member.lastname}`,
          time_ms: r.timeMs,
          klass: klassOf(r.member.group),
          bib: r.bib,
          club: r.member.company,
          // The age that year (an import stores it for child-safe publishing; the site never shows it).
          age: r.age,
        });
      });
    }
  }
  return results;
}

export function buildDemoData() {
  const random = createRandom(SEED);
  const { households, names } = makeHouseholds(random);

  const registrations = [];
  const participants = [];
  const payments = [];
  const races = [];
  const seasonRunners = {};
  let previous = new Set();
  for (const season of Object.keys(RACE_DAYS).map(Number)) {
    const s = buildSeason(random, season, households, previous);
    registrations.push(...s.registrations);
    participants.push(...s.participants);
    payments.push(...s.payments);
    races.push(...s.races);
    seasonRunners[season] = s.participants.filter((p) => p.bib !== null);
    previous = new Set(s.registrations.map((r) => r.email));
  }

  // A visitor who signed in but never added a runner: the admin lists drop such registrations (spec).
  const emptyAt = cest("2025-08-18T20:14:03");
  registrations.push({
    id: random.uuid(),
    season: DEMO_SEASON,
    email: "tom.registrering@example.se",
    payid: null,
    version: 0,
    created_at: emptyAt,
    updated_at: emptyAt,
  });

  const results = buildResults(random, households, seasonRunners, names);

  const courseRecords = DISTANCES.map((d) => {
    const best = results
      .filter((r) => r.distance === d)
      .reduce((a, b) => (b.time_ms < a.time_ms || (b.time_ms === a.time_ms && b.year < a.year) ? b : a));
    return { distance: d, name: best.name, time_ms: best.time_ms, year: best.year };
  });

  const paidUses = (code) =>
    payments.filter((p) => p.season === DEMO_SEASON && p.kampanj === code && p.status === "PAID").length;
  const campaignCodes = [
    ...BUILTIN_CAMPAIGNS.map((c) => ({
      code: c.code,
      rule: c.rule,
      valid_until: c.validUntil,
      max_uses: c.maxUses,
      uses: paidUses(c.code),
      disabled: 0,
      builtin: 1,
      note: "",
      created_at: cest("2025-04-01T09:00:00"),
      created_by: null,
    })),
    {
      code: ORGANISER_CAMPAIGN.code,
      rule: ORGANISER_CAMPAIGN.rule,
      valid_until: ORGANISER_CAMPAIGN.validUntil,
      max_uses: ORGANISER_CAMPAIGN.maxUses,
      uses: paidUses(ORGANISER_CAMPAIGN.code),
      disabled: 0,
      builtin: 0,
      note: ORGANISER_CAMPAIGN.note,
      created_at: cest("2025-05-12T19:30:00"),
      created_by: ORGANISER,
    },
  ];

  const galleryImages = galleryPlan().flatMap(({ year, files }) =>
    files.map((file, i) => ({ year, position: i + 1, url: galleryUrl(year, file) })),
  );

  // One previous runner, not registered this season, who followed an unsubscribe link: mass mailings skip them.
  const current = new Set(registrations.filter((r) => r.season === DEMO_SEASON).map((r) => r.email));
  const unsubscribed = registrations.find((r) => r.season < DEMO_SEASON && !current.has(r.email));
  const unsubscribes = unsubscribed
    ? [{ email: unsubscribed.email, at: cest("2025-06-20T21:03:00"), mailing_id: null }]
    : [];

  return {
    registrations,
    participants: participants.map(({ member: _member, ...row }) => row),
    payments,
    races,
    campaignCodes,
    results,
    courseRecords,
    galleryImages,
    unsubscribes,
  };
}

/** Table name, data key and columns, in insert order (parents before children for the foreign keys). */
export const DEMO_TABLES = [
  ["races", "races", ["part", "season", "date", "distance", "start_time", "open_for_reg", "state", "started"]],
  ["registrations", "registrations", ["id", "season", "email", "payid", "version", "created_at", "updated_at"]],
  [
    "participants",
    "participants",
    [
      "id",
      "registration_id",
      "season",
      "firstname",
      "lastname",
      "age",
      "company",
      "distance",
      "group",
      "bib",
      "race_id",
      "phone",
      "created_at",
      "companion",
    ],
  ],
  [
    "payments",
    "payments",
    [
      "id",
      "registration_id",
      "season",
      "origin",
      "amount",
      "currency",
      "status",
      "date_created",
      "date_paid",
      "payment_reference",
      "payer_alias",
      "payee_alias",
      "error_code",
      "error_message",
      "token",
      "callback_identifier",
      "payee_payment_reference",
      "message",
      "kampanj",
      "barn",
      "vuxna",
      "participant_ids",
      "runner_prices",
      "settled_at",
    ],
  ],
  [
    "campaign_codes",
    "campaignCodes",
    ["code", "rule", "valid_until", "max_uses", "uses", "disabled", "builtin", "note", "created_at", "created_by"],
  ],
  ["results", "results", ["year", "distance", "place", "name", "time_ms", "klass", "bib", "club", "age"]],
  ["course_records", "courseRecords", ["distance", "name", "time_ms", "year"]],
  ["gallery_images", "galleryImages", ["year", "position", "url"]],
  ["unsubscribes", "unsubscribes", ["email", "at", "mailing_id"]],
];

function sqlValue(v) {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new RangeError(`Ogiltigt tal i demodata: ${v}`);
    return String(v);
  }
  if (typeof v === "boolean") return v ? "1" : "0";
  return `'${String(v).replaceAll("'", "''")}'`;
}

/** Rows per INSERT: keeps each statement far below D1's 100 KB statement limit. */
const ROWS_PER_STATEMENT = 100;

/** The SQL script: empty the demo tables (children first), then insert every row. */
export function demoSql(data) {
  const lines = [
    "-- Demo data for local development (scripts/seed.mjs). Invented people; re-applying gives the same state.",
  ];
  for (const [table] of [...DEMO_TABLES].reverse()) lines.push(`DELETE FROM "${table}";`);
  for (const [table, key, columns] of DEMO_TABLES) {
    const rows = data[key];
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const values = rows
        .slice(i, i + ROWS_PER_STATEMENT)
        .map((row) => `(${columns.map((c) => sqlValue(row[c])).join(", ")})`);
      lines.push(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES\n${values.join(",\n")};`);
    }
  }
  return lines.join("\n") + "\n";
}
