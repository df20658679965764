import { Accounts } from '@vonage/accounts';
import { Numbers } from '@vonage/numbers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, newAccount, sdkOptions, stack, startReceiver } from './helpers';

function numbersClient(acct: { api_key: string; api_secret: string }) {
  return new Numbers({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());
}

async function available(acct: { api_key: string; api_secret: string }, country: string, query = '') {
  const res = await fetch(`${stack.url}/number/search?country=${country}&size=100${query}`, {
    headers: { authorization: basic(acct.api_key, acct.api_secret) },
  });
  return (await res.json()) as {
    count: number;
    numbers: { msisdn: string; type: string; cost: string; features: string[] }[];
  };
}

describe('numbers through @vonage/numbers', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((req) => (req.url?.startsWith('/down') ? 503 : 200));
  });
  afterAll(() => receiver.close());

  it('searches, buys, lists, updates and cancels', async () => {
    const acct = await newAccount({ balance: 20 });
    const client = numbersClient(acct);
    const search = await client.getAvailableNumbers({
      country: 'GB',
      type: 'mobile-lvn',
      features: ['SMS', 'VOICE'],
    } as never);
    expect(search.count).toBeGreaterThan(10);
    const pick = search.numbers![0]!;
    expect(pick).toMatchObject({ country: 'GB', type: 'mobile-lvn', features: ['SMS', 'VOICE'] });
    expect(pick.cost).toMatch(/^\d+\.\d\d$/);

    expect(await client.buyNumber({ country: 'GB', msisdn: pick.msisdn! })).toEqual({
      errorCode: '200',
      errorCodeLabel: 'success',
    });
    // The first month is charged through the ledger.
    const balance = await new Accounts(
      { apiKey: acct.api_key, apiSecret: acct.api_secret },
      sdkOptions(),
    ).getBalance();
    expect(balance.value).toBeCloseTo(20 - Number(pick.cost), 8);

    const owned = await client.getOwnedNumbers({});
    expect(owned.count).toBe(1);
    expect(owned.numbers![0]).toMatchObject({ country: 'GB', msisdn: pick.msisdn, type: 'mobile-lvn' });

    // No longer for rent.
    const after = await available(acct, 'GB', `&pattern=${pick.msisdn}`);
    expect(after.count).toBe(0);

    expect(
      await client.updateNumber({
        country: 'GB',
        msisdn: pick.msisdn!,
        moHttpUrl: `${receiver.url}/inbound`,
        voiceCallbackType: 'tel',
        voiceCallbackValue: '447700900001',
      } as never),
    ).toEqual({ errorCode: '200', errorCodeLabel: 'success' });
    expect(receiver.received.some((r) => r.method === 'GET' && r.url === '/inbound')).toBe(true);
    const updated = await client.getOwnedNumbers({});
    expect(updated.numbers![0]).toMatchObject({
      moHttpUrl: `${receiver.url}/inbound`,
      voiceCallbackType: 'tel',
      voiceCallbackValue: '447700900001',
    });

    // A URL that does not answer 200 is refused; an empty string removes it.
    await expect(
      client.updateNumber({
        country: 'GB',
        msisdn: pick.msisdn!,
        moHttpUrl: `${receiver.url}/down`,
      } as never),
    ).rejects.toMatchObject({ response: { status: 400 } });
    await client.updateNumber({ country: 'GB', msisdn: pick.msisdn!, moHttpUrl: '' } as never);
    expect((await client.getOwnedNumbers({})).numbers![0]).not.toHaveProperty('moHttpUrl');

    expect(await client.cancelNumber({ country: 'GB', msisdn: pick.msisdn! })).toEqual({
      errorCode: '200',
      errorCodeLabel: 'success',
    });
    expect((await client.getOwnedNumbers({})).count).toBe(0);
    // Back in the pool.
    expect((await available(acct, 'GB', `&pattern=${pick.msisdn}`)).count).toBe(1);
  });

  it('gives exactly one owner to a number bought concurrently by two accounts', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const pick = (await available(a, 'NL', '&type=mobile-lvn')).numbers[3]!;
    const results = await Promise.allSettled([
      numbersClient(a).buyNumber({ country: 'NL', msisdn: pick.msisdn }),
      numbersClient(b).buyNumber({ country: 'NL', msisdn: pick.msisdn }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason.response.status).toBe(420);
    const owners =
      (await numbersClient(a).getOwnedNumbers({})).count! +
      (await numbersClient(b).getOwnedNumbers({})).count!;
    expect(owners).toBe(1);
  });

  it('filters owned numbers by country, pattern and application', async () => {
    const acct = await newAccount({ balance: 50 });
    const client = numbersClient(acct);
    const gb = (await available(acct, 'GB', '&type=landline')).numbers.slice(0, 2);
    const se = (await available(acct, 'SE', '&type=mobile-lvn')).numbers.slice(0, 1);
    for (const n of gb) await client.buyNumber({ country: 'GB', msisdn: n.msisdn });
    for (const n of se) await client.buyNumber({ country: 'SE', msisdn: n.msisdn });
    const appRes = await fetch(`${stack.url}/v2/applications`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'numbers' }),
    });
    const app = (await appRes.json()) as { id: string };
    await client.updateNumber({ country: 'SE', msisdn: se[0]!.msisdn, applicationId: app.id } as never);

    expect((await client.getOwnedNumbers({})).count).toBe(3);
    expect((await client.getOwnedNumbers({ country: 'GB' } as never)).count).toBe(2);
    expect((await client.getOwnedNumbers({ applicationId: app.id } as never)).numbers![0]!.msisdn).toBe(
      se[0]!.msisdn,
    );
    expect((await client.getOwnedNumbers({ hasApplication: false } as never)).count).toBe(2);
    expect((await client.getOwnedNumbers({ hasApplication: true } as never)).count).toBe(1);
    const tail = gb[1]!.msisdn.slice(-4);
    const byPattern = await client.getOwnedNumbers({ pattern: tail, searchPattern: 2 } as never);
    expect(byPattern.numbers!.map((n) => n.msisdn)).toContain(gb[1]!.msisdn);
    const page = await client.getOwnedNumbers({ size: 2, index: 2 } as never);
    expect(page.count).toBe(3);
    expect(page.numbers).toHaveLength(1);
  });
});

describe('numbers errors (raw HTTP)', () => {
  it('answers 420 for a country that needs a local address', async () => {
    const acct = await newAccount();
    const res = await fetch(`${stack.url}/number/buy`, {
      method: 'POST',
      headers: {
        authorization: basic(acct.api_key, acct.api_secret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'country=DE&msisdn=4915123225536',
    });
    expect(res.status).toBe(420);
    expect(((await res.json()) as Record<string, string>)['error-code']).toBe('420');
  });

  it('refuses a country that is not two characters, and answers in XML when asked', async () => {
    const acct = await newAccount();
    const res = await fetch(`${stack.url}/number/search?country=GBR`, {
      headers: { authorization: basic(acct.api_key, acct.api_secret), accept: 'application/xml' },
    });
    expect(res.status).toBe(400);
    const xml = await res.text();
    expect(xml).toContain('<inbound-numbers>');
    expect(xml).toContain('<error-code>400</error-code>');
  });

  it('lists available numbers in XML with each feature as an element', async () => {
    const acct = await newAccount();
    const res = await fetch(`${stack.url}/number/search?country=GB&type=mobile-lvn&size=1`, {
      headers: { authorization: basic(acct.api_key, acct.api_secret), accept: 'application/xml' },
    });
    const xml = await res.text();
    expect(xml).toMatch(/<count>\d+<\/count>/);
    expect(xml).toMatch(
      /<number>\s*<country>GB<\/country>\s*<msisdn>44\d+<\/msisdn>\s*<type>mobile-lvn<\/type>/,
    );
    expect(xml).toContain('<feature>SMS</feature>');
  });

  it('refuses cancelling or updating a number the account does not rent, and buying one without funds', async () => {
    const acct = await newAccount({ balance: 0 });
    const client = numbersClient(acct);
    const pick = (await available(acct, 'SE', '&type=mobile-lvn')).numbers[5]!;
    await expect(client.buyNumber({ country: 'SE', msisdn: pick.msisdn })).rejects.toMatchObject({
      response: { status: 420 },
    });
    // Still for rent: the failed purchase released it.
    expect((await available(acct, 'SE', `&pattern=${pick.msisdn}`)).count).toBe(1);
    await expect(client.cancelNumber({ country: 'SE', msisdn: pick.msisdn })).rejects.toMatchObject({
      response: { status: 420 },
    });
    await expect(
      client.updateNumber({ country: 'SE', msisdn: pick.msisdn, moHttpUrl: '' } as never),
    ).rejects.toMatchObject({
      response: { status: 420 },
    });
  });

  it('lets a primary account buy for its secondary with target_api_key, and nobody else', async () => {
    const primary = await newAccount();
    const secondary = await newAccount({ primary_api_key: primary.api_key });
    const stranger = await newAccount();
    const pick = (await available(primary, 'SE', '&type=landline')).numbers[0]!;
    await expect(
      numbersClient(stranger).buyNumber({
        country: 'SE',
        msisdn: pick.msisdn,
        targetApiKey: secondary.api_key,
      } as never),
    ).rejects.toMatchObject({ response: { status: 401 } });
    await numbersClient(primary).buyNumber({
      country: 'SE',
      msisdn: pick.msisdn,
      targetApiKey: secondary.api_key,
    } as never);
    expect((await numbersClient(secondary).getOwnedNumbers({})).count).toBe(1);
    expect((await numbersClient(primary).getOwnedNumbers({})).count).toBe(0);
  });
});
