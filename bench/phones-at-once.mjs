/**
 * `npm run bench phones-at-once`: spectators over real HTTP against `npm start`'s server (separate incoming requests,
 * which the Worker test project cannot make: there every fetch is a sub-request of the test). A running race's
 * public view is read by 50 phones at once just after the Worker's per-isolate copy has expired (each asking again as
 * soon as it has its answer, for 1.5 s), six rounds with a finish between them: every read must be a 200 with the
 * race (workerd answers 500 "Cannot perform I/O on behalf of a different request" when one request awaits a promise
 * another request made), and the newest finish must be in the view within 2 s. Fails otherwise. Races are made on
 * days in 2039.
 */
import { devAdmin } from "./lib/http.mjs";

const CLIENT = { "x-loppet-client": "1" };
const PHONES = 50;
const ROUNDS = 6;

const pick = (n) => Math.floor(Math.random() * n);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** race-YYMMDD-NN (src/shared/race-id.ts). */
const raceId = (day, meters) => `race-${day.slice(2).replaceAll("-", "")}-${String(meters / 100).padStart(2, "0")}`;
const tapId = () => crypto.randomUUID().replace(/-/g, "");

export async function run({ baseURL }) {
  const { cookie } = await devAdmin(baseURL);
  const admin = (p, body) =>
    fetch(`${baseURL}/admin/api/races/${p}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { ...CLIENT, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ok = async (res, what) => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const publicRead = async (part) => {
    const res = await fetch(`${baseURL}/api/races/get/${part}`);
    return { status: res.status, body: await res.text() };
  };

  let race;
  for (;;) {
    const day = `2039-${String(1 + pick(12)).padStart(2, "0")}-${String(1 + pick(28)).padStart(2, "0")}`;
    const distance = 100 * (1 + pick(9_000));
    const res = await admin(`create-race/${raceId(day, distance)}`, { date: day, distance, openForReg: false });
    if (res.status === 409) continue;
    race = await ok(res, "create-race");
    break;
  }
  const runners = [];
  for (let i = 0; i < 12; i += 1) {
    runners.push(
      await ok(
        await admin(`add-runner/${race.part}`, { firstname: `Åskådad${i}`, lastname: "Test", age: 30 }),
        "add-runner",
      ),
    );
  }
  // The server's clock times the start and the finishes: no `at`.
  await ok(await admin(`start/${race.part}?tap=${tapId()}`), "start");

  const failures = [];
  let reads = 0;
  const lags = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const runner = runners[round];
    await ok(await admin(`finish/${race.part}/${runner.sort}?tap=${tapId()}`), "finish");
    const tapped = Date.now();
    // One read makes the copy; just after it has expired, the phones ask at once, and again as soon as each has its
    // answer, for 1.5 s (across the next expiry too).
    if ((await publicRead(race.part)).status !== 200) failures.push(`round ${round}: first read`);
    await sleep(1_050);
    const until = Date.now() + 1_500;
    await Promise.all(
      Array.from({ length: PHONES }, async () => {
        do {
          const { status, body } = await publicRead(race.part);
          reads += 1;
          if (status !== 200) failures.push(`round ${round}: ${status} ${body.slice(0, 120)}`);
        } while (Date.now() < until);
      }),
    );
    for (;;) {
      const { status, body } = await publicRead(race.part);
      if (status !== 200) throw new Error(`round ${round}: ${status}`);
      const [, ...rest] = JSON.parse(body);
      if (rest.find((r) => r.sort === runner.sort)?.time !== undefined) break;
      if (Date.now() - tapped > 1_050 + 1_500 + 2_000) throw new Error(`round ${round}: the finish is not in the view`);
      await sleep(100);
    }
    lags.push(Date.now() - tapped);
  }
  if (failures.length > 0) throw new Error(`${failures.length} reads failed:\n${failures.slice(0, 10).join("\n")}`);
  return {
    figures: { phones: PHONES, rounds: ROUNDS, reads, failures: 0 },
    summary: `${PHONES} telefoner × ${ROUNDS} rundor: ${reads} läsningar, alla 200`,
  };
}
