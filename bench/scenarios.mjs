// What each benchmark sends. `prepare` creates what the requests need (an account, a number) and
// answers the request; `ok` checks one answer before the measurement, so a run that only measures
// errors fails instead of reporting a figure.

async function account(stack, init = {}) {
  const res = await fetch(`${stack.url}/_sandbox/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ balance: 100000, ...init }),
  });
  return res.json();
}

const basic = (a) => `Basic ${Buffer.from(`${a.api_key}:${a.api_secret}`).toString('base64')}`;

export const SCENARIOS = {
  sms: {
    async prepare(stack) {
      // A limit high enough that the benchmark measures sending, not throttling.
      const a = await account(stack, { settings: { 'max-outbound-request': 10000 } });
      return {
        method: 'POST',
        path: '/sms/json',
        headers: { authorization: basic(a), 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'Acme', to: '447700900050', text: 'Benchmark message' }),
      };
    },
    ok: (status, body) => status === 200 && /"status":"0"/.test(body),
  },
  balance: {
    async prepare(stack) {
      const a = await account(stack);
      return { method: 'GET', path: '/account/get-balance', headers: { authorization: basic(a) } };
    },
    ok: (status) => status === 200,
  },
  'ni-basic': {
    async prepare(stack) {
      // Insight allows 30 requests per second per key, so the load is spread over many accounts
      // and measures lookups, not throttled answers.
      const accounts = await Promise.all(Array.from({ length: 60 }, () => account(stack)));
      return {
        method: 'GET',
        path: '/ni/basic/json?number=447700900123',
        headers: { authorization: basic(accounts[0]) },
        rotate: accounts.map((a) => ({ authorization: basic(a) })),
      };
    },
    ok: (status, body) => status === 200 && /"status":\s*0/.test(body),
  },
};
