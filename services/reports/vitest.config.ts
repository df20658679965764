import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/**
 * Stands in for the accounts service. Accounts: `primary1` with its secondary `second01`, and the
 * unrelated `other001`, each with secret `Secret123`; `failing1` whose ledger throws. Every account
 * has 2,500 outbound SMS, one a second from 2026-01-01T00:00:00Z (every third one `failed`), and
 * three NUMBER-INSIGHT lookups. Only `limited1` is held to the 10 report requests a second of the
 * real ledger, so that the other tests are not throttled.
 */
const accountsStub = `
import { WorkerEntrypoint } from 'cloudflare:workers';
const BASE = Date.UTC(2026, 0, 1);
const PRIMARY = { primary1: null, second01: 'primary1', other001: null, failing1: null, limited1: null };
function ledger(apiKey) {
  const out = [];
  for (let i = 0; i < 2500; i++) {
    const id = apiKey.toUpperCase() + String(i).padStart(8, '0');
    out.push({
      seq: i + 1, id, product: 'SMS', direction: 'outbound', amount: 3330000, refunded: i === 0 ? 1000000 : 0,
      createdAt: BASE + i * 1000, redacted: false,
      record: JSON.stringify({ message_id: id, direction: 'outbound', from: 'Acme', to: '447700900' + String(i % 1000).padStart(3, '0'),
        text: 'Hello, "world" ' + i, country: 'GB', country_name: 'United Kingdom', network: '23410',
        network_name: 'O2', price: '0.03330000', currency: 'EUR', status: i % 3 === 2 ? 'failed' : 'delivered',
        date_received: new Date(BASE + i * 1000).toISOString() }),
    });
  }
  for (let i = 0; i < 3; i++) {
    out.push({ seq: 3000 + i, id: 'ni-' + i, product: 'NUMBER-INSIGHT', direction: null, amount: 500000, refunded: 0,
      createdAt: BASE + i * 1000, redacted: false,
      record: JSON.stringify({ request_id: 'ni-' + i, product_type: 'STANDARD', number: '447700900001', status: 'Success',
        response_code: '0', country: 'GB', first_name: null }) });
  }
  return out;
}
const windows = new Map();
export default class extends WorkerEntrypoint {
  verifySecret(apiKey, secret) {
    return apiKey in PRIMARY && secret === 'Secret123' ? { apiKey, primaryApiKey: PRIMARY[apiKey] } : null;
  }
  signatureSettings() { return null; }
  applicationKey() { return null; }
  identity(apiKey) { return apiKey in PRIMARY ? { apiKey, primaryApiKey: PRIMARY[apiKey] } : null; }
  secondaryAccounts(apiKey) { return Object.keys(PRIMARY).filter((k) => PRIMARY[k] === apiKey); }
  takeAllowance(apiKey, kind) {
    if (apiKey !== 'limited1') return true;
    const now = Date.now();
    const key = apiKey + ':' + kind;
    const recent = (windows.get(key) ?? []).filter((t) => now - t < 1000);
    windows.set(key, recent);
    if (recent.length >= 10) return false;
    recent.push(now);
    return true;
  }
  usagePage(apiKey, q) {
    if (apiKey === 'failing1') throw new Error('ledger down');
    const rows = ledger(apiKey).filter((r) => r.product === q.product
      && (!q.direction || r.direction === q.direction)
      && (!q.ids || q.ids.includes(r.id))
      && (q.from === undefined || r.createdAt >= q.from)
      && (q.to === undefined || r.createdAt < q.to)
      && (!q.after || r.createdAt > q.after.createdAt || (r.createdAt === q.after.createdAt && r.seq > q.after.seq))
      && Object.entries(q.fields ?? {}).every(([k, v]) => JSON.parse(r.record)[k] === v));
    const limit = q.limit ?? 1000;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { records: page, next: rows.length > limit ? { createdAt: last.createdAt, seq: last.seq } : null };
  }
}`;

/** Consumes the webhooks queue and shows the jobs that reached it at GET /. */
const webhooksSink = `
const received = [];
export default {
  async queue(batch) {
    for (const message of batch.messages) received.push(message.body);
  },
  fetch() {
    return Response.json(received);
  },
};`;

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.jsonc' },
      miniflare: {
        serviceBindings: { ACCOUNTS: 'accounts', WEBHOOKS_SINK: 'webhooks-sink' },
        workers: [
          { name: 'accounts', modules: true, script: accountsStub, compatibilityDate: '2026-04-20' },
          {
            name: 'webhooks-sink',
            modules: true,
            script: webhooksSink,
            compatibilityDate: '2026-04-20',
            queueConsumers: { webhooks: { maxBatchTimeout: 0 } },
          },
        ],
      },
    }),
  ],
  test: {
    include: ['test/**/*.integration.test.ts', 'src/**/*.unit.test.ts'],
  },
});
