// Starts the whole local stack (the gateway and every service in one wrangler process) and
// provisions the demo account and demo voice application. Used by `pnpm dev` and by the
// end-to-end tests, so both run exactly the same stack.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every service's wrangler config, the gateway first (it is the worker that gets the port). */
export function serviceConfigs() {
  const services = readdirSync(join(ROOT, 'services'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(ROOT, 'services', d.name, 'wrangler.jsonc')))
    .map((d) => d.name)
    .sort((a, b) => (a === 'gateway' ? -1 : b === 'gateway' ? 1 : a.localeCompare(b)));
  return services.map((name) => join('services', name, 'wrangler.jsonc'));
}

/**
 * Starts wrangler dev and resolves once the gateway answers.
 * @param {{ port?: number, token?: string, stateDir?: string, log?: (line: string) => void }} options
 */
export async function startStack(options = {}) {
  const port = options.port ?? 8787;
  const token = options.token ?? 'sandbox-dev-token';
  const stateDir = options.stateDir ?? join(ROOT, '.wrangler', 'state');
  const log = options.log ?? (() => {});
  const args = [
    'wrangler',
    'dev',
    ...serviceConfigs().flatMap((c) => ['-c', c]),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--persist-to',
    stateDir,
    '--var',
    `SANDBOX_TOKEN:${token}`,
    '--show-interactive-dev-session=false',
  ];
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler'),
    args.slice(1),
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const onData = (chunk) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    for (const line of text.split('\n')) if (line.trim()) log(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`wrangler dev exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`wrangler dev was not ready within 120 s:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/_sandbox/health`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }

  const stop = () =>
    new Promise((resolveStop) => {
      if (exited) return resolveStop(undefined);
      child.once('exit', () => resolveStop(undefined));
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { url, token, port, child, stop, output: () => output };
}

/**
 * The demo account and demo voice application, created on first start and kept (with the
 * state) afterwards. Recreated if the state was wiped.
 * @param {{ url: string, token: string }} stack
 */
export async function ensureDemo(stack, demoDir = join(ROOT, '.wrangler', 'demo')) {
  const credentialsFile = join(demoDir, 'credentials.json');
  const privateKeyFile = join(demoDir, 'private.key');
  if (existsSync(credentialsFile)) {
    const saved = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    const res = await fetch(`${stack.url}/v2/applications/${saved.application_id}`, {
      headers: { authorization: `Basic ${btoa(`${saved.api_key}:${saved.api_secret}`)}` },
    });
    if (res.status === 200 && existsSync(privateKeyFile))
      return { ...saved, private_key_path: privateKeyFile };
  }
  const accountRes = await fetch(`${stack.url}/_sandbox/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ balance: 10 }),
  });
  if (accountRes.status !== 201)
    throw new Error(`creating the demo account failed: ${accountRes.status} ${await accountRes.text()}`);
  const account = await accountRes.json();
  const appRes = await fetch(`${stack.url}/v2/applications`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${account.api_key}:${account.api_secret}`)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      name: 'Demo voice application',
      capabilities: {
        voice: {
          webhooks: {
            answer_url: { address: 'http://127.0.0.1:3000/webhooks/answer', http_method: 'GET' },
            event_url: { address: 'http://127.0.0.1:3000/webhooks/event', http_method: 'POST' },
          },
        },
      },
    }),
  });
  if (appRes.status !== 201)
    throw new Error(`creating the demo application failed: ${appRes.status} ${await appRes.text()}`);
  const app = await appRes.json();
  mkdirSync(demoDir, { recursive: true });
  writeFileSync(privateKeyFile, app.keys.private_key, { mode: 0o600 });
  const demo = {
    api_key: account.api_key,
    api_secret: account.api_secret,
    signature_secret: account.signature_secret,
    signature_method: account.signature_method,
    application_id: app.id,
  };
  writeFileSync(credentialsFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return { ...demo, private_key_path: privateKeyFile };
}
