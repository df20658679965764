import { defineConfig } from 'vitest/config';

// The worker keeps no state of its own, so its routes run in Node against stand-ins for the accounts
// service and the families; the end-to-end suite in test/ drives them through the official SDK with the
// real services.
export default defineConfig({
  test: { include: ['src/**/*.unit.test.ts'] },
});
