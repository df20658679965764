import { defineConfig } from 'vitest/config';

// The gateway's logic is routing: tested in Node with stand-in bindings. The real bindings are
// exercised by the end-to-end suite in test/.
export default defineConfig({
  test: { include: ['src/**/*.unit.test.ts'] },
});
