/**
 * Requests per second of GET /api/config (session lookup, season rules, JSON) against the bare GET /api/health
 * on the same server: autocannon -c 10 -d 10 each, after a short warm-up. The ratio is the cost of the config
 * call relative to the cheapest possible answer, which is steadier across machines than either figure.
 */
import autocannon from "autocannon";

const CONNECTIONS = 10;
const DURATION_S = 10;
const WARMUP_S = 2;

function load(url, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration });
}

async function measure(url) {
  await load(url, WARMUP_S);
  const r = await load(url, DURATION_S);
  return {
    url,
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

export async function run({ baseURL }) {
  const bare = await measure(`${baseURL}/api/health`);
  const config = await measure(`${baseURL}/api/config`);
  const ratio = Math.round((config.requestsPerSecond / bare.requestsPerSecond) * 100) / 100;
  const figures = { connections: CONNECTIONS, durationSeconds: DURATION_S, bare, config, ratioConfigToBare: ratio };
  const line = (label, m) =>
    `${label.padEnd(16)} ${String(m.requestsPerSecond).padStart(6)} req/s   p50 ${m.latencyMs.p50} ms   ` +
    `p99 ${m.latencyMs.p99} ms   non-2xx ${m.non2xx}   fel ${m.errors + m.timeouts}`;
  const summary = [line("GET /api/health", bare), line("GET /api/config", config), `config/bare      ${ratio}`].join(
    "\n",
  );
  return { figures, summary };
}
