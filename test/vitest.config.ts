import { defineConfig } from 'vitest/config';
import ResetLastSequencer from './sequencer';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./global-setup.ts'],
    // One stack for every file; files run one at a time against it.
    fileParallelism: false,
    sequence: { sequencer: ResetLastSequencer },
    testTimeout: 30_000,
    hookTimeout: 150_000,
  },
});
