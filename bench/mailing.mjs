/**
 * Issue 9's mass e-mail figure: a mailing to 2,000 recipients through the local Queue (wrangler dev's queue
 * broker delivering to the Worker's own consumer, the development outbox as the provider), against the real
 * server. Set-up, untimed: 2,000 families register and book through the public calls (/email → /code → /update →
 * /book-v2 with a free campaign code the organiser made for the run, so each is PAID at once), each with its own
 * address and client address.
 * Timed: from the start of POST /admin/api/send-email-current-runners to the progress call saying done (polled
 * every 250 ms), plus how long the send call took to answer. Checked afterwards: every recipient's mails of this
 * mailing in /dev/outbox.json, which must be exactly one each (none lost, none doubled).
 * MAILING_BENCH_RECIPIENTS changes the number of new families (the demo season's paying families come on top).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { benchFreeCode, request, round } from "./lib/http.mjs";
import { inParallel, sleep } from "./lib/async.mjs";

const FAMILIES = Number(process.env.MAILING_BENCH_RECIPIENTS ?? 2000);
/** Families registered at once during the set-up (two shared cores: more only queues on the server). */
const SETUP_PARALLEL = 6;
const CHECK_PARALLEL = 8;
const POLL_MS = 250;
const DONE_TIMEOUT_MS = 20 * 60_000;

export async function run({ baseURL }) {
  const runId = Date.now().toString(36);
  const admin = { ip: "10.99.0.1", cookies: new Map() };
  const login = await request(baseURL, "POST", "/admin/api/dev-login", { email: "arrangor@example.se" }, admin);
  if (login.status !== 200) throw new Error(`dev-login svarade ${login.status}`);
  const freeCode = await benchFreeCode(baseURL, admin, runId);

  const t0 = performance.now();
  await inParallel(FAMILIES, SETUP_PARALLEL, (n) => registerPaidFamily(baseURL, runId, n, freeCode));
  const setupMs = performance.now() - t0;
  const count = await request(baseURL, "GET", "/admin/api/get_current_runners_count_handler", null, admin);
  const list = await request(baseURL, "GET", "/admin/api/get_current_runners_handler", null, admin);
  if (!Array.isArray(list.json) || list.json.length !== count.json?.count)
    throw new Error("Listan och antalet skiljer sig");

  const sendStart = performance.now();
  const sent = await request(
    baseURL,
    "POST",
    "/admin/api/send-email-current-runners",
    { subject: `Benchmark ${runId}`, message: "Hej! Det här är ett prov av massutskicket." },
    admin,
  );
  const answerMs = performance.now() - sendStart;
  if (sent.status !== 202) throw new Error(`Utskicket svarade ${sent.status}: ${JSON.stringify(sent.json)}`);
  const { id, totalRecipients } = sent.json;

  let progress;
  const progressSamples = [];
  for (;;) {
    progress = (await request(baseURL, "GET", `/admin/api/mailings/${id}`, null, admin)).json;
    progressSamples.push({ atMs: Math.round(performance.now() - sendStart), sent: progress.sentCount });
    if (progress.done) break;
    if (performance.now() - sendStart > DONE_TIMEOUT_MS)
      throw new Error(`Utskicket blev inte klart: ${JSON.stringify(progress)}`);
    await sleep(POLL_MS);
  }
  const allSentMs = performance.now() - sendStart;

  const perAddress = new Map();
  await inParallel(list.json.length, CHECK_PARALLEL, async (i) => {
    const email = list.json[i].email;
    const mails = (
      await request(baseURL, "GET", `/dev/outbox.json?to=${encodeURIComponent(email)}&limit=500`, null, admin)
    ).json;
    perAddress.set(email, mails.filter((m) => m.mailingId === id).length);
  });
  const copies = [...perAddress.values()];
  const figures = {
    method: {
      transport:
        "loopback (localhost), wrangler dev: lokal kö (Miniflare) → Workerns queue()-konsument → utvecklingsutkorgen",
      consumer: "max_batch_size 10, max_batch_timeout 1 s, max_concurrency 2 (wrangler.toml)",
      timer: "performance.now() i Node-klienten; förloppet läses var 250:e ms",
    },
    newFamilies: FAMILIES,
    setupMs: Math.round(setupMs),
    recipients: totalRecipients,
    sendAnswerMs: round(answerMs),
    allSentMs: Math.round(allSentMs),
    mailsPerSecond: round(progress.sentCount / (allSentMs / 1000)),
    result: {
      sentCount: progress.sentCount,
      failedCount: progress.failedCount,
      skippedCount: progress.skippedCount,
      errors: progress.errors.length,
    },
    outbox: {
      addressesChecked: copies.length,
      exactlyOne: copies.filter((n) => n === 1).length,
      missing: copies.filter((n) => n === 0).length,
      doubled: copies.filter((n) => n > 1).length,
    },
    progressSamples: progressSamples.filter((_, i) => i % 8 === 0 || i === progressSamples.length - 1),
  };
  if (figures.outbox.exactlyOne !== totalRecipients || progress.sentCount !== totalRecipients) {
    throw new Error(
      `Inte exakt ett mejl per mottagare: ${JSON.stringify(figures.outbox)} ${JSON.stringify(figures.result)}`,
    );
  }
  const summary = [
    `Massutskick till ${totalRecipients} mottagare (${FAMILIES} nya familjer + demosäsongens betalande):`,
    `  skicka-anropet svarade på ${figures.sendAnswerMs} ms; alla skickade efter ${(allSentMs / 1000).toFixed(1)} s` +
      ` (${figures.mailsPerSecond} mejl/s)`,
    `  utkorgen: ${figures.outbox.exactlyOne} adresser med exakt ett mejl, ${figures.outbox.missing} utan,` +
      ` ${figures.outbox.doubled} dubblerade; misslyckade ${progress.failedCount}`,
    `  (förberedelse: ${FAMILIES} betalda anmälningar på ${(setupMs / 1000).toFixed(0)} s, otajmat)`,
  ].join("\n");
  return { figures, summary };
}

/** One family: log in with the e-mailed code, one runner, a free booking (PAID at once). */
async function registerPaidFamily(baseURL, runId, n, freeCode) {
  const visitor = { ip: `10.88.${Math.floor(n / 250)}.${(n % 250) + 1}`, cookies: new Map() };
  const email = `massutskick-${runId}-${n}@example.se`;
  const expect = (res, path, statuses = [200]) => {
    if (!statuses.includes(res.status)) throw new Error(`${path} svarade ${res.status}: ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const login = expect(await request(baseURL, "POST", "/email", { email }, visitor), "/email");
  expect(
    await request(baseURL, "POST", "/code", { email, codeId: login.id, code: login.code }, visitor),
    "/code",
    [200, 204],
  );
  const id = randomUUID();
  const runner = { id, firstname: "Prov", lastname: `Familj${n}`, age: 35, company: "", distance: "5.6", group: "Dam" };
  const view = expect(await request(baseURL, "POST", "/update", { runners: { [id]: runner } }, visitor), "/update");
  const booked = expect(
    await request(baseURL, "POST", "/book-v2", { kampanj: freeCode, barn: view.barn, vuxna: view.vuxna }, visitor),
    "/book-v2",
  );
  if (booked.token !== "kampanj") throw new Error(`/book-v2 gav ingen gratisorder: ${JSON.stringify(booked)}`);
}
