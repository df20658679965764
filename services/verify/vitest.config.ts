import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/**
 * Stands in for the accounts service. Every account's secret is `secret`; the API key's first word
 * chooses how the account behaves: `pin-…` may set pin_code, `demo-…` is in demo mode, `poor-…`
 * cannot pay, `busy-…` is throttled, `broken-…` makes the ledger fail, `ghost-…` does not exist.
 * What was charged and refunded is kept, and shown by `ledger(apiKey)`.
 */
const accountsStub = `
import { WorkerEntrypoint } from 'cloudflare:workers';
const entries = new Map();
const flag = (apiKey) => apiKey.split('-')[0];
const log = (apiKey, entry) => entries.set(apiKey, [...(entries.get(apiKey) ?? []), entry]);
export default class extends WorkerEntrypoint {
  verifySecret(apiKey, secret) {
    return flag(apiKey) !== 'ghost' && secret === 'secret' ? { apiKey, primaryApiKey: null } : null;
  }
  signatureSettings() { return null; }
  applicationKey() { return null; }
  flags(apiKey) {
    return { demoMode: flag(apiKey) === 'demo', pinCodeAllowed: flag(apiKey) === 'pin' };
  }
  takeThroughput(apiKey) { return flag(apiKey) !== 'busy'; }
  transact(apiKey, request) {
    if (flag(apiKey) === 'broken') throw new Error('the ledger is down');
    if (flag(apiKey) === 'busy') return { ok: false, reason: 'throttled', balance: 0 };
    if (request.refuseDemo && flag(apiKey) === 'demo') return { ok: false, reason: 'demo-mode', balance: 0 };
    if (flag(apiKey) === 'poor') return { ok: false, reason: 'insufficient-funds', balance: 0 };
    for (const charge of request.charges) log(apiKey, { kind: 'charge', ...charge });
    return { ok: true, balances: request.charges.map(() => 0), settings: {} };
  }
  charge(apiKey, request) {
    log(apiKey, { kind: 'charge', ...request });
    return { ok: true, balance: 0, recordId: 1 };
  }
  amendUsage(apiKey, request) {
    const charge = (entries.get(apiKey) ?? []).find((e) => e.kind === 'charge' && e.id === request.id);
    if (charge) charge.record = { ...charge.record, ...request.record };
    return charge !== undefined;
  }
  refund(apiKey, request) {
    log(apiKey, { kind: 'refund', ...request });
    return { ok: true, balance: 0, recordId: 1 };
  }
  ledger(apiKey) { return entries.get(apiKey) ?? []; }
}`;

/** Stands in for the SMS service's handsets: what each phone received, in order. */
const smsStub = `
import { WorkerEntrypoint } from 'cloudflare:workers';
const inboxes = new Map();
export default class extends WorkerEntrypoint {
  deliverToHandset(message) {
    const received = { id: crypto.randomUUID(), received_at: new Date().toISOString(), ...message };
    inboxes.set(message.to, [...(inboxes.get(message.to) ?? []), received]);
    return received;
  }
  handsetMessages(msisdn) { return inboxes.get(msisdn) ?? []; }
}`;

export default defineConfig({
  test: {
    projects: [
      {
        // The state machine is pure: its example and property tests run in Node.
        test: { name: 'unit', include: ['src/**/*.unit.test.ts'], environment: 'node' },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.jsonc' },
            miniflare: {
              serviceBindings: { ACCOUNTS: 'accounts', SMS: 'sms' },
              workers: [
                { name: 'accounts', modules: true, script: accountsStub, compatibilityDate: '2026-04-20' },
                { name: 'sms', modules: true, script: smsStub, compatibilityDate: '2026-04-20' },
              ],
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/**/*.integration.test.ts'],
          // The tests mock `Date` in the isolate the worker and its objects share.
          fileParallelism: false,
        },
      },
    ],
  },
});
