import { defineConfig } from 'vitest/config';

// SMS parsing is pure code, tested in Node; the Durable Objects and routes are driven through
// the official SDK by the end-to-end suite in test/, where the accounts service they need runs too.
export default defineConfig({
  test: { include: ['src/**/*.unit.test.ts'] },
});
