import { describe, expect, it } from 'vitest';
import { app } from './app';

/**
 * A stand-in service binding that echoes what reached it and, like every service, answers with the
 * request id it was given or one of its own.
 */
const echo = {
  fetch: async (req: Request) =>
    new Response(
      JSON.stringify({ path: new URL(req.url).pathname, requestId: req.headers.get('x-request-id') }),
      {
        headers: {
          'content-type': 'application/json',
          'x-request-id': req.headers.get('x-request-id') ?? 'named-by-the-service',
        },
      },
    ),
};

const env = { API_HOST: '', REST_HOST: '', EU_HOST: '', TOKEN_HOST: '', SANDBOX_TOKEN: '', ACCOUNTS: echo };

describe('the gateway app', () => {
  it("forwards to the family binding and passes its response through, with the service's request id", async () => {
    const res = await app.request('/account/get-balance', {}, env);
    const body = (await res.json()) as { path: string; requestId: string | null };
    expect(body.path).toBe('/account/get-balance');
    expect(res.headers.get('x-request-id')).toBe('named-by-the-service');
  });

  it('keeps a caller-supplied request id all the way through', async () => {
    const res = await app.request('/account/get-balance', { headers: { 'x-request-id': 'trace-1' } }, env);
    expect(((await res.json()) as { requestId: string }).requestId).toBe('trace-1');
    expect(res.headers.get('x-request-id')).toBe('trace-1');
  });

  it('names its own answers (unknown paths) with a request id', async () => {
    const res = await app.request('/nothing/here', {}, env);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { instance: string }).instance).toBe(id);
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
