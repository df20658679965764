// Load benchmark on loopback: a scenario against the whole stack (through the gateway) and the
// same requests against a bare Hono worker started the same way, in the same run; prints both
// rates and their ratio. Usage: node bench/run.mjs [scenario] [--duration 10] [--connections 20]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ROOT, startStack } from '../scripts/stack.mjs';
import { SCENARIOS } from './scenarios.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } },
});
const name = positionals[0] ?? 'ni-basic';
const scenario = SCENARIOS[name];
if (!scenario) {
  console.error(`unknown scenario ${name}; one of ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}
const duration = Number(values.duration);
const connections = Number(values.connections);

async function startBare(port) {
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '-c',
      'bench/bare/wrangler.jsonc',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return { url, stop: () => child.kill('SIGTERM') };
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('bare worker did not start');
}

/** Runs the load; with `rotate`, each request takes the next header set (spreading per-key limits). */
function load(url, request) {
  let i = 0;
  const rotate = request.rotate;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + request.path,
        method: request.method,
        headers: request.headers,
        body: request.body,
        duration,
        connections,
        ...(rotate
          ? {
              requests: [
                {
                  setupRequest: (req) => ({
                    ...req,
                    headers: { ...req.headers, ...rotate[i++ % rotate.length] },
                  }),
                },
              ],
            }
          : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** The process and every descendant (wrangler starts workerd as a child). */
function processTree(pid) {
  let children = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)])
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Peak resident memory (VmHWM, Linux) of a process tree, in MiB. */
function peakMemoryMiB(pid) {
  let kib = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) kib += Number(m[1]);
    } catch {
      // gone
    }
  }
  return (kib / 1024).toFixed(0);
}

const dir = mkdtempSync(join(tmpdir(), 'comms-bench-'));
const stack = await startStack({ port: 8890, token: 'bench-token', stateDir: join(dir, 'state') });
const bare = await startBare(8891);
try {
  const request = await scenario.prepare(stack);
  // Warm both up so that neither pays for its first compile in the measurement.
  await load(stack.url, { ...request }).catch(() => {});
  const check = await fetch(stack.url + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const checkBody = await check.text();
  if (!scenario.ok(check.status, checkBody))
    throw new Error(`scenario answered ${check.status}: ${checkBody.slice(0, 300)}`);
  const bareResult = await load(bare.url, request);
  const stackResult = await load(stack.url, request);
  const line = (label, r) =>
    `${label.padEnd(10)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
  console.log(
    `\nscenario ${name}: ${request.method} ${request.path}, ${connections} connections, ${duration} s each, 127.0.0.1`,
  );
  console.log(line('bare hono', bareResult));
  console.log(line('stack', stackResult));
  console.log(
    `ratio      ${(stackResult.requests.average / bareResult.requests.average).toFixed(3)} of the bare worker's rate`,
  );
  console.log(`stack peak memory ${peakMemoryMiB(stack.child.pid)} MiB resident (wrangler and workerd)`);
} finally {
  bare.stop();
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
