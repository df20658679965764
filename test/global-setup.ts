import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain ES module shared with `pnpm dev`.
import { ensureDemo, startStack } from '../scripts/stack.mjs';
import { freePort } from './ports';

export interface StackInfo {
  url: string;
  token: string;
  demo: { api_key: string; api_secret: string; application_id: string; private_key_path: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

/** Starts the whole stack, exactly as `pnpm dev` does, on a free port with fresh state. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'comms-e2e-'));
  const lines: string[] = [];
  const stack = await startStack({
    port: await freePort(),
    token: 'e2e-sandbox-token',
    stateDir: join(dir, 'state'),
    log: (line: string) => lines.push(line),
  });
  const demo = await ensureDemo(stack, join(dir, 'demo'));
  project.provide('stack', { url: stack.url, token: stack.token, demo });
  return async () => {
    await stack.stop();
    if (process.env.E2E_LOG) console.log(lines.join('\n'));
    rmSync(dir, { recursive: true, force: true });
  };
}
