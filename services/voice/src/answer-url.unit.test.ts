import { describe, expect, it } from 'vitest';
import { fetchNcco } from './answer-url';

const params = { to: '447700900001', from: '447700900999', uuid: 'u-1', conversation_uuid: 'CON-1' };
const NCCO = JSON.stringify([{ action: 'talk', text: 'Hi' }]);

/** A fake server: answers in turn, and keeps the requests. */
function server(...answers: (Response | Error)[]) {
  const requests: Request[] = [];
  const fetcher = (async (input: string, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const answer = answers.shift() ?? new Response('', { status: 500 });
    if (answer instanceof Error) throw answer;
    return answer;
  }) as typeof fetch;
  return { fetcher, requests };
}

describe('fetching an NCCO from an answer URL', () => {
  it('sends the answer fields in the query of a GET', async () => {
    const s = server(new Response(NCCO));
    const result = await fetchNcco(
      { url: 'https://example.com/answer?x=1', method: 'GET', params },
      s.fetcher,
    );
    expect(result.ok).toBe(true);
    const url = new URL(s.requests[0]!.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ x: '1', ...params });
  });

  it('sends them as a JSON body with POST', async () => {
    const s = server(new Response(NCCO));
    await fetchNcco({ url: 'https://example.com/answer', method: 'POST', params }, s.fetcher);
    expect(s.requests[0]!.method).toBe('POST');
    expect(await s.requests[0]!.json()).toEqual(params);
  });

  it('tries three times when the server is unavailable or unreachable, not on other errors', async () => {
    const retried = server(
      new Response('', { status: 503 }),
      new TypeError('connection refused'),
      new Response(NCCO),
    );
    expect(
      (await fetchNcco({ url: 'https://example.com/a', method: 'GET', params }, retried.fetcher)).ok,
    ).toBe(true);
    expect(retried.requests).toHaveLength(3);
    const gone = server(new Response('', { status: 404 }));
    expect(
      await fetchNcco({ url: 'https://example.com/a', method: 'GET', params }, gone.fetcher),
    ).toMatchObject({
      ok: false,
      reason: 'answer_url answered HTTP 404',
    });
    expect(gone.requests).toHaveLength(1);
    const down = server(
      new Response('', { status: 503 }),
      new Response('', { status: 503 }),
      new Response('', { status: 503 }),
    );
    expect(
      await fetchNcco({ url: 'https://example.com/a', method: 'GET', params }, down.fetcher),
    ).toMatchObject({
      ok: false,
      reason: 'answer_url answered HTTP 503',
    });
  });

  it('refuses what is not an NCCO', async () => {
    for (const body of ['not json', '{"action":"talk"}', '[{"action":"talk"}]', 'x'.repeat(300_000)]) {
      const s = server(new Response(body));
      const result = await fetchNcco({ url: 'https://example.com/a', method: 'GET', params }, s.fetcher);
      expect(result.ok).toBe(false);
    }
  });
});

describe('signing an answer webhook', () => {
  const signer = { apiKey: 'abcd1234', applicationId: 'app-1', secret: 'the-signature-secret' };

  it('sends an HS256 token over the body when the account has a secret', async () => {
    const s = server(new Response(NCCO));
    await fetchNcco({ url: 'https://example.com/a', method: 'POST', params }, s.fetcher, signer);
    const token = s.requests[0]!.headers.get('authorization')!.replace(/^Bearer /, '');
    const [header, claims, signature] = token.split('.') as [string, string, string];
    const decode = (part: string) => JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
    expect(decode(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const body = JSON.stringify(params);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
    expect(decode(claims)).toMatchObject({
      api_key: 'abcd1234',
      application_id: 'app-1',
      iss: 'Vonage',
      payload_hash: [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''),
    });
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(signer.secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    const raw = Uint8Array.from(
      atob(signature.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (signature.length % 4)) % 4)),
      (c) => c.charCodeAt(0),
    );
    expect(
      await crypto.subtle.verify('HMAC', key, raw, new TextEncoder().encode(`${header}.${claims}`)),
    ).toBe(true);
  });

  it('sends no token without a signer', async () => {
    const s = server(new Response(NCCO));
    await fetchNcco({ url: 'https://example.com/a', method: 'GET', params }, s.fetcher);
    expect(s.requests[0]!.headers.get('authorization')).toBeNull();
  });
});
