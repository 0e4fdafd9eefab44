/**
 * `node scripts/guide-screenshots.mjs [--no-build]`: the pictures of the volunteers' guide ('Hjälp', /admin/hjalp;
 * src/web/features/admin/help/volunteer-guide.ts), taken from the running site.
 *
 * Starts the site as `npm start` does (scripts/lib/server.mjs: build into dist/, migrate, seed the demo data, a fresh
 * state directory) with its clock on the demo season's race morning, signs in through the development form, and
 * plays race morning on a 390 px phone (Debian's Chromium, scripts/lib/chromium.mjs): a family at the bib desk, a
 * race before and after its start, finishers tapped, taps made without a connection, rapid timing's 'Mål!' and bibs
 * typed in finish order (one mistyped, so 'Att granska' has an item), and a race where everybody is in. The set-up
 * that is not what the guide shows (runners already checked in, the start pressed minutes ago on another phone, the
 * last runners finished) goes through the admin API the phones use. Each picture is the phone's screen at the
 * guide's size, saved as WebP into public/hjalp/ (commit them; test/shared/volunteer-guide.test.ts checks their
 * sizes against the guide's and that they stay under ~400 KB together).
 *
 * `--no-build` serves the bundle already in dist/. The build writes the shared dist/ folder: never while the browser
 * tests run (`flock /tmp/e2e.lock node scripts/guide-screenshots.mjs` waits for them).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { chromium } from "playwright-core";
import sharp from "sharp";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./lib/chromium.mjs";
import { ROOT } from "./lib/proc.mjs";
import { startLocalServer } from "./lib/server.mjs";

/** Race morning of the demo season (scripts/seed/demo-data.mjs: race day 2025-09-13, the 1.6 km starts 11:15). */
const RACE_MORNING = "2025-09-13T11:20:00+02:00";
/** The demo season's races: the tiles on the 1.6 km, rapid timing on the 2.8 km. */
const TILES_RACE = "race-250913-16";
const RAPID_RACE = "race-250913-28";
/** As the guide gives them (volunteer-guide.ts: GUIDE_IMAGE_SCALE and each picture's height in CSS pixels). */
const WIDTH = 390;
const SCALE = 1.5;
const WEBP_QUALITY = 62;
const OUT = path.join(ROOT, "public", "hjalp");
const CLIENT = { "x-loppet-client": "1" };
const DEVICE = "hjalp-bilder";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tapId = () => randomBytes(12).toString("base64url");

async function main() {
  const build = !process.argv.includes("--no-build");
  console.log(`▸ Startar sajten (${build ? "bygger först" : "bygget i dist/"}), klockan ${RACE_MORNING}`);
  const server = await startLocalServer({ now: RACE_MORNING, build, timeoutMs: 400_000 });
  const line = await cuttableLine(server.port);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const pictures = new Map();
  try {
    const context = await browser.newContext({
      baseURL: line.baseURL,
      locale: "sv-SE",
      timezoneId: "Europe/Stockholm",
      viewport: { width: WIDTH, height: 800 },
      deviceScaleFactor: SCALE,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await signIn(page);
    const phone = new Phone(page, pictures);

    await bibDesk(phone);
    await tilesRace(phone, context, line);
    await rapidRace(phone);
    await endOfRace(phone);
  } finally {
    await browser.close();
    await line.close();
    await server.stop();
  }

  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (!pictures.has(file)) rmSync(path.join(OUT, file));
  let total = 0;
  for (const [file, png] of pictures) {
    const target = path.join(OUT, file);
    await sharp(png).webp({ quality: WEBP_QUALITY, effort: 6 }).toFile(target);
    const bytes = statSync(target).size;
    total += bytes;
    console.log(`  public/hjalp/${file}  ${(bytes / 1024).toFixed(1)} kB`);
  }
  console.log(`✔ ${pictures.size} bilder, ${(total / 1024).toFixed(1)} kB tillsammans`);
}

/**
 * The phone's line to the site: a proxy that can be cut, so the race screen loses its socket the way a phone behind
 * the school does ('socket stängd'; the browser's own offline switch leaves an open socket alone). The Host header
 * passes unchanged, so the site takes the proxy's address for its own (cookies, origin checks, the socket's URL).
 */
async function cuttableLine(port) {
  let down = false;
  const open = new Set();
  const track = (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  };
  const proxy = http.createServer((req, res) => {
    if (down) return void req.socket.destroy();
    const forward = http.request(
      { host: "localhost", port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    forward.on("error", () => req.socket.destroy());
    req.pipe(forward);
  });
  proxy.keepAliveTimeout = 1_000;
  proxy.on("connection", (socket) => (down ? socket.destroy() : track(socket)));
  proxy.on("upgrade", (req, socket, head) => {
    if (down) return void socket.destroy();
    const back = net.connect({ host: "localhost", port }, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      back.write(lines.join("\r\n") + "\r\n\r\n");
      if (head.length > 0) back.write(head);
      socket.pipe(back);
      back.pipe(socket);
    });
    track(back);
    track(socket);
    const end = () => {
      socket.destroy();
      back.destroy();
    };
    for (const s of [back, socket]) {
      s.on("error", end);
      s.on("close", end);
    }
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://localhost:${proxy.address().port}`,
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

async function signIn(page) {
  await page.goto("/admin/login");
  await page.getByLabel("E-postadress").fill("arrangor@example.se");
  await page.getByRole("button", { name: "Logga in (utveckling)" }).click();
  await page.waitForURL("**/admin/list-by-race");
}

/** The signed-in phone: the admin API and the screen's pictures. */
class Phone {
  constructor(page, pictures) {
    this.page = page;
    this.pictures = pictures;
  }

  async api(method, url, data) {
    const res = await this.page.request.fetch(url, { method, headers: CLIENT, data });
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return res.json();
  }

  async serverNow() {
    return (await this.api("GET", "/api/config")).serverTime;
  }

  /** [race record, ...runners] as the race object has them now. */
  async race(part) {
    return this.api("GET", `/admin/api/races/get/${part}`);
  }

  /** Checks runners in at the desk as a volunteer did earlier this morning (30 at most per call). */
  async pickUp(part, runners) {
    for (let i = 0; i < runners.length; i += 30) {
      await this.api("POST", "/admin/api/checkin/pickup", {
        runners: runners.slice(i, i + 30).map((r) => ({ id: r.id, raceId: part })),
        pickedUp: true,
        actionId: tapId(),
        device: DEVICE,
      });
    }
  }

  /** 'Starta' pressed `minutesAgo` before now by another phone (the times in the pictures look like a race's). */
  async startedAgo(part, minutesAgo) {
    const at = Math.round((await this.serverNow()) - minutesAgo * 60_000);
    await this.api("GET", `/admin/api/races/start/${part}?tap=${tapId()}&at=${at}&device=${DEVICE}`);
  }

  async openRace(part) {
    await this.page.setViewportSize({ width: WIDTH, height: 800 });
    await this.page.goto(`/admin/race/${part}`);
    await this.page.getByRole("heading", { level: 2, name: part }).waitFor();
    await this.page.locator(".race-controls").waitFor();
    await this.page.getByText("socket ansluten").waitFor();
  }

  /**
   * The phone's screen `height` CSS pixels high, scrolled so that `locator` is `offset` pixels from its top (the
   * page's top when no locator): what a volunteer sees, the sticky admin bar and a fixed button included.
   */
  async picture(name, height, locator, offset = 64) {
    const { page } = this;
    await page.setViewportSize({ width: WIDTH, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    if (locator) {
      const top = await locator.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      await page.evaluate((y) => window.scrollTo(0, y), Math.max(0, top - offset));
    }
    // Two frames: the scroll and any layout after the resize are painted.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    this.pictures.set(`${name}.webp`, await page.screenshot({ animations: "disabled", caret: "hide" }));
    await page.setViewportSize({ width: WIDTH, height: 800 });
  }
}

/** A runner's tile, by the bib it shows. */
const tile = (page, runner) =>
  page.locator(".tile-cell").filter({ has: page.locator(".tile-bib", { hasText: new RegExp(`^${runner.bib}$`) }) });

/** The bib desk: a paid family of two runners found by name, neither checked in yet. */
async function bibDesk(phone) {
  const { page } = phone;
  const [, ...runners] = await phone.race(TILES_RACE);
  let family = null;
  search: for (const r of runners) {
    const hits = await phone.api("GET", `/admin/api/checkin/search?q=${encodeURIComponent(r.lastname)}`);
    for (const hit of hits.filter((h) => h.paid && h.runners.length === 2)) {
      const found = await phone.api("GET", `/admin/api/checkin/family/${hit.kind}/${hit.id}`);
      if (found.runners.every((x) => x.raceId !== null && !x.companion && x.bib !== null)) {
        family = hit;
        break search;
      }
    }
  }
  if (!family) throw new Error(`Ingen betald familj med två löpare med nummer i ${TILES_RACE}.`);
  const lastname = family.runners[0].lastname;
  await page.goto("/admin/incheckning");
  await page.getByLabel("Sök namn, e-post eller startnummer – eller skriv koden").fill(lastname);
  await page
    .locator(".checkin-hit")
    .filter({ hasText: family.email ?? family.runners[0].firstname })
    .first()
    .click();
  const card = page.locator(".checkin-family");
  await card.getByRole("button", { name: /^Hämtat – hela familjen/ }).waitFor();
  await phone.picture("nummerlappar", 560, page.locator(".checkin-search"), 64);
}

/** The 1.6 km with the tiles: before the start, finishers tapped, and taps made without a connection. */
async function tilesRace(phone, context, line) {
  const { page } = phone;
  const [, ...runners] = await phone.race(TILES_RACE);
  // Checked in earlier this morning: all but the two lowest bibs.
  const byBib = runners.filter((r) => r.bib !== null).sort((a, b) => a.bib - b.bib);
  await phone.pickUp(
    TILES_RACE,
    byBib.slice(2).filter((r) => r.pickedUpAt === undefined),
  );
  // Signed up on the spot, no bib yet: the tile shows '?'.
  await phone.api("POST", `/admin/api/races/add-runner/${TILES_RACE}`, {
    firstname: "Saga",
    lastname: "Lindqvist",
    age: 9,
    bib: null,
    group: "Dam",
    company: "",
  });

  await phone.openRace(TILES_RACE);
  await page.locator(".tile-cell").filter({ hasText: "Lindqvist" }).waitFor();
  await phone.picture("fore-start", 560);

  await phone.startedAgo(TILES_RACE, 6.5);
  await page.locator(".race-state").filter({ hasText: "Startat" }).waitFor();
  const finishers = byBib.slice(2, 5);
  for (const r of finishers) {
    await tile(page, r).locator(".tile").click();
    await sleep(900 + Math.random() * 1_500);
  }
  await page
    .locator(".tile-finished")
    .nth(finishers.length - 1)
    .waitFor();
  await page
    .locator(".results-table tbody tr")
    .nth(finishers.length - 1)
    .waitFor();
  await phone.picture("malgang", 560, page.locator(".tile-finished").first(), 160);

  // No connection: the phone says so, and the taps wait on it.
  line.cut();
  await context.setOffline(true);
  await page.getByText("You are NOT connected to the network.").waitFor();
  await page.getByText("socket stängd").waitFor();
  for (const r of byBib.slice(5, 7)) {
    await tile(page, r).locator(".tile").click();
    await sleep(700);
  }
  await page.getByText("Ej skickade måltider: 2").waitFor();
  await phone.picture("utan-nat", 430);
  line.restore();
  await context.setOffline(false);
  await page.getByText(/Ej skickade måltider/).waitFor({ state: "detached", timeout: 30_000 });
}

/** The 2.8 km timed with 'Mål!', the bibs typed in finish order afterwards, one of them mistyped. */
async function rapidRace(phone) {
  const { page } = phone;
  const [, ...runners] = await phone.race(RAPID_RACE);
  await phone.pickUp(
    RAPID_RACE,
    runners.filter((r) => r.pickedUpAt === undefined),
  );
  await phone.startedAgo(RAPID_RACE, 12.5);
  await phone.openRace(RAPID_RACE);
  const modes = page.getByRole("group", { name: "Tidtagningsläge" });
  await modes.getByRole("button", { name: "Mål!" }).click();
  const finishButton = page.locator(".rapid-button");
  for (let i = 0; i < 5; i += 1) {
    await finishButton.click();
    await sleep(600 + Math.random() * 1_800);
  }
  await page.locator(".slot-row").nth(4).waitFor();
  await page.getByText("ej skickad").first().waitFor({ state: "detached", timeout: 20_000 });
  await phone.picture("mal-knappen", 560, modes, 70);

  // The bibs of four runners in finish order; the fourth typed with two digits swapped, a number nobody has.
  const bibs = new Set(runners.map((r) => r.bib));
  const withBib = runners.filter((r) => r.bib !== null).sort((a, b) => a.bib - b.bib);
  const slip = withBib.slice(3).find((r) => {
    const s = String(r.bib);
    const swapped = Number(s.slice(0, -2) + s.at(-1) + s.at(-2));
    return s.at(-1) !== s.at(-2) && !bibs.has(swapped);
  });
  if (!slip) throw new Error(`Inget startnummer i ${RAPID_RACE} att skriva fel.`);
  const s = String(slip.bib);
  const typed = [withBib[2].bib, withBib[0].bib, withBib[1].bib]
    .map(String)
    .concat(s.slice(0, -2) + s.at(-1) + s.at(-2));
  await modes.getByRole("button", { name: "Startnummer" }).click();
  const keypad = page.locator(".keypad");
  for (const bib of typed) {
    for (const digit of bib) await keypad.getByRole("button", { name: digit, exact: true }).click();
    await keypad.getByRole("button", { name: "OK, skicka startnumret" }).click();
    await sleep(400);
  }
  await page
    .locator(".bib-entry-row")
    .nth(typed.length - 1)
    .waitFor();
  await page.locator(".bib-entry-unsent").first().waitFor({ state: "detached", timeout: 20_000 });
  await page.getByRole("heading", { name: "Att granska (1)" }).waitFor();
  await page.locator(".review-suggestions").waitFor();
  await phone.picture("startnummer", 620, page.locator(".bib-display"), 70);
  await phone.picture("att-granska", 450, page.locator(".race-review"), 70);
}

/** The 1.6 km with everybody in: those who never picked up marked DNS, the last finishers timed by another phone. */
async function endOfRace(phone) {
  const { page } = phone;
  await phone.api("GET", `/admin/api/races/dns-not-picked-up/${TILES_RACE}?confirm=DNS&device=${DEVICE}`);
  const [, ...runners] = await phone.race(TILES_RACE);
  for (const r of runners.filter((x) => x.finished === null && !x.dns)) {
    const at = Math.round(await phone.serverNow());
    await phone.api("GET", `/admin/api/races/finish/${TILES_RACE}/${r.sort}?tap=${tapId()}&at=${at}&device=${DEVICE}`);
  }
  await phone.openRace(TILES_RACE);
  await page.getByRole("button", { name: "Avsluta lopp" }).waitFor();
  await phone.picture("avsluta", 380, page.getByRole("heading", { level: 2, name: TILES_RACE }), 70);
}

await main();
