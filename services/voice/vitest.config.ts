import { generateKeyPairSync } from 'node:crypto';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/** The key pair of the test application: the accounts stub serves the public half for JWT checks. */
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/**
 * Stands in for the accounts service: application `app-<apiKey>` belongs to account `<apiKey>` and
 * verifies with the test key; every charge is kept and shown by `ledger(apiKey)`; the signature
 * secret of `<apiKey>` is `secret-of-<apiKey>`.
 */
const accountsStub = `
import { WorkerEntrypoint } from 'cloudflare:workers';
const entries = new Map();
export default class extends WorkerEntrypoint {
  applicationKey(appId) {
    if (!appId.startsWith('app-')) return null;
    return { publicKey: ${JSON.stringify(keys.publicKey)}, apiKey: appId.slice(4), primaryApiKey: null };
  }
  charge(apiKey, request) {
    entries.set(apiKey, [...(entries.get(apiKey) ?? []), request]);
    return { ok: true, balance: 0, recordId: 1 };
  }
  ledger(apiKey) { return entries.get(apiKey) ?? []; }
  signingSecret(apiKey) { return { secret: 'secret-of-' + apiKey, method: 'sha256', signWebhooks: false }; }
  settings() { return { 'max-calls-per-second': 30 }; }
}`;

/** Stands in for the numbers service: no application has numbers. */
const numbersStub = `
import { WorkerEntrypoint } from 'cloudflare:workers';
export default class extends WorkerEntrypoint {
  numbersOfApplication() { return []; }
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

/** Consumes the webhooks queue in place of the webhooks service and shows the jobs at GET /. */
const webhookSink = `
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
  test: {
    projects: [
      {
        // The state machine, the NCCO and create-body rules are pure: their example and property
        // tests run in Node.
        test: { name: 'unit', include: ['src/**/*.unit.test.ts'], environment: 'node' },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.jsonc' },
            miniflare: {
              bindings: { TEST_PRIVATE_KEY: keys.privateKey },
              serviceBindings: {
                ACCOUNTS: 'accounts',
                NUMBERS: 'numbers',
                SMS: 'sms',
                WEBHOOK_SINK: 'webhook-sink',
              },
              workers: [
                { name: 'accounts', modules: true, script: accountsStub, compatibilityDate: '2026-04-20' },
                { name: 'numbers', modules: true, script: numbersStub, compatibilityDate: '2026-04-20' },
                { name: 'sms', modules: true, script: smsStub, compatibilityDate: '2026-04-20' },
                {
                  name: 'webhook-sink',
                  modules: true,
                  script: webhookSink,
                  compatibilityDate: '2026-04-20',
                  queueConsumers: { webhooks: { maxBatchTimeout: 0 } },
                },
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
