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
  'reports-100k': {
    async prepare(stack) {
      // The vendor's 10 synchronous report requests a second would make most of the load 429s; the
      // sandbox lifts the limit for this account so that the query itself is measured.
      const a = await account(stack, { rate_limits: { reports: 100000 } });
      const seeded = await fetch(`${stack.url}/_sandbox/usage/seed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
        // 23.9 hours, so that every record falls inside the 24-hour window queried below.
        body: JSON.stringify({ api_key: a.api_key, count: 100000, hours: 23.9 }),
      });
      if (seeded.status !== 201) throw new Error(`seeding answered ${seeded.status}: ${await seeded.text()}`);
      const end = Date.now();
      const query = new URLSearchParams({
        account_id: a.api_key,
        product: 'SMS',
        direction: 'outbound',
        date_start: new Date(end - 24 * 3600_000).toISOString(),
        date_end: new Date(end).toISOString(),
      });
      const request = {
        method: 'GET',
        path: `/v2/reports/records?${query}`,
        headers: { authorization: basic(a) },
      };
      await walkAllPages(stack, request);
      return request;
    },
    ok: (status, body) => status === 200 && /"items_count":1000,/.test(body),
  },
};

/** Follows `_links.next` through every page of the window once and prints how long it took. */
async function walkAllPages(stack, request) {
  const started = performance.now();
  let url = stack.url + request.path;
  let pages = 0;
  let records = 0;
  while (url) {
    const body = await (await fetch(url, { headers: request.headers })).json();
    pages++;
    records += body.items_count;
    url = body._links?.next?.href;
  }
  const ms = performance.now() - started;
  console.log(
    `reports-100k: walked ${records} records in ${pages} pages in ${ms.toFixed(0)} ms (${(ms / pages).toFixed(1)} ms a page)`,
  );
}
