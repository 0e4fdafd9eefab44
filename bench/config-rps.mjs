/**
 * Requests per second of GET /api/config (session lookup, season rules, JSON) against the bare GET /api/health
 * on the same server, autocannon -c 10 -d 10. The ratio is the cost of the config call relative to the
 * cheapest possible answer, which is steadier across machines than either figure.
 *
 * Both endpoints are warmed up first (a cold isolate is slower), then measured in two alternating rounds and
 * the better round of each is kept: on a shared two-core machine another process can take the cores for a few
 * seconds, and alternating keeps that from landing on one endpoint only.
 */
import autocannon from "autocannon";

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 3;
const ROUNDS = 2;

async function measure(url, duration = DURATION_S) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration });
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

const best = (rounds) => rounds.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));

export async function run({ baseURL }) {
  const urls = { bare: `${baseURL}/api/health`, config: `${baseURL}/api/config` };
  for (const url of Object.values(urls)) await measure(url, WARMUP_S);
  const rounds = { bare: [], config: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const [key, url] of Object.entries(urls)) rounds[key].push(await measure(url));
  }
  const bare = { url: urls.bare, ...best(rounds.bare), rounds: rounds.bare };
  const config = { url: urls.config, ...best(rounds.config), rounds: rounds.config };
  // Errors anywhere count, not only in the kept round.
  const failures = (rs) => rs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  const ratio = Math.round((config.requestsPerSecond / bare.requestsPerSecond) * 100) / 100;
  const figures = {
    connections: CONNECTIONS,
    durationSeconds: DURATION_S,
    rounds: ROUNDS,
    bare,
    config,
    ratioConfigToBare: ratio,
    failedRequests: { bare: failures(rounds.bare), config: failures(rounds.config) },
  };
  const line = (label, m, failed) =>
    `${label.padEnd(16)} ${String(m.requestsPerSecond).padStart(6)} req/s   p50 ${m.latencyMs.p50} ms   ` +
    `p99 ${m.latencyMs.p99} ms   non-2xx/fel ${failed}`;
  const summary = [
    line("GET /api/health", bare, figures.failedRequests.bare),
    line("GET /api/config", config, figures.failedRequests.config),
    `config/bare      ${ratio}`,
  ].join("\n");
  return { figures, summary };
}
