import { describe, expect, it } from 'vitest';
import { app } from './app';

/** A stand-in service binding that echoes what reached it. */
const echo = {
  fetch: async (req: Request) =>
    new Response(
      JSON.stringify({ path: new URL(req.url).pathname, requestId: req.headers.get('x-request-id') }),
      {
        headers: { 'content-type': 'application/json' },
      },
    ),
};

const env = { API_HOST: '', REST_HOST: '', EU_HOST: '', TOKEN_HOST: '', SANDBOX_TOKEN: '', ACCOUNTS: echo };

describe('the gateway app', () => {
  it('forwards to the family binding with the same request id it answers with', async () => {
    const res = await app.request('/account/get-balance', {}, env);
    const body = (await res.json()) as { path: string; requestId: string };
    expect(body.path).toBe('/account/get-balance');
    expect(res.headers.get('x-request-id')).toBe(body.requestId);
  });

  it('keeps a caller-supplied request id', async () => {
    const res = await app.request('/account/get-balance', { headers: { 'x-request-id': 'trace-1' } }, env);
    expect(res.headers.get('x-request-id')).toBe('trace-1');
  });

  it('answers 404 problem bodies for unserved families and unknown paths', async () => {
    const sms = await app.request('/sms/json', {}, env);
    expect(sms.status).toBe(404);
    expect(await sms.json()).toMatchObject({ detail: 'The sms API is not available on this deployment' });
    const none = await app.request('/nothing/here', {}, env);
    expect(none.status).toBe(404);
  });

  it('does not route the sandbox at all without a token', async () => {
    const res = await app.request('/_sandbox/health', { headers: { authorization: 'Bearer ' } }, env);
    expect(res.status).toBe(404);
    const withToken = await app.request(
      '/_sandbox/health',
      { headers: { authorization: 'Bearer t' } },
      { ...env, SANDBOX_TOKEN: 't' },
    );
    expect(withToken.status).toBe(200);
  });
});
