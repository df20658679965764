import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/**
 * Stands in for the accounts service: `signingSecret` answers from the API key alone, so tests pick
 * an account's signing by its name: `<signed|plain>-<method>-<anything>`; `ghost-…` has no account.
 */
const accountsStub = `
import { WorkerEntrypoint } from 'cloudflare:workers';
export default class extends WorkerEntrypoint {
  signingSecret(apiKey) {
    const [flag, method] = apiKey.split('-');
    if (flag === 'ghost') return null;
    return { secret: 'secret-of-' + apiKey, method: method || 'sha256', signWebhooks: flag === 'signed' };
  }
}`;

/** Consumes the dead-letter queue and shows what reached it, newest last, at GET /. */
const deadLetterSink = `
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
        serviceBindings: { ACCOUNTS: 'accounts', DLQ_SINK: 'dlq-sink' },
        workers: [
          { name: 'accounts', modules: true, script: accountsStub, compatibilityDate: '2026-04-20' },
          {
            name: 'dlq-sink',
            modules: true,
            script: deadLetterSink,
            compatibilityDate: '2026-04-20',
            queueConsumers: { 'webhooks-dlq': { maxBatchTimeout: 0 } },
          },
        ],
      },
    }),
  ],
  test: {
    include: ['test/**/*.integration.test.ts', 'src/**/*.unit.test.ts'],
    // Every test file runs in the same isolate as the worker, and the tests replace its `fetch` and
    // `Date`: two files at once would see each other's receivers and clocks.
    fileParallelism: false,
    // Retries travel through the real local queue, a second or so per hop.
    testTimeout: 60_000,
  },
});
