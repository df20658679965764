import { describe, expect, it } from 'vitest';
import { newAccount, stack } from './helpers';

// Runs last (see sequencer.ts): it wipes the state every other file relies on.
describe('POST /_sandbox/reset', () => {
  it('wipes every account', async () => {
    const acct = await newAccount({ balance: 3 });
    const url = `${stack.url}/account/get-balance?api_key=${acct.api_key}&api_secret=${acct.api_secret}`;
    expect((await fetch(url)).status).toBe(200);
    const reset = await fetch(`${stack.url}/_sandbox/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}` },
    });
    expect(reset.status).toBe(204);
    expect((await fetch(url)).status).toBe(401);
    const demo = `${stack.url}/account/get-balance?api_key=${stack.demo.api_key}&api_secret=${stack.demo.api_secret}`;
    expect((await fetch(demo)).status).toBe(401);
    // New accounts work after a reset.
    const fresh = await newAccount({ balance: 1 });
    const res = await fetch(
      `${stack.url}/account/get-balance?api_key=${fresh.api_key}&api_secret=${fresh.api_secret}`,
    );
    expect(await res.json()).toEqual({ value: 1, autoReload: false });
  });
});
