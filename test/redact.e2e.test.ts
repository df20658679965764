import { ProductType, Redact, Type } from '@vonage/redact';
import { Direction, Product, Reports } from '@vonage/reports';
import { describe, expect, it } from 'vitest';
import { type Account, basic, inbox, newAccount, sdkOptions, stack } from './helpers';

const redactClient = (a: Account) => new Redact({ apiKey: a.api_key, apiSecret: a.api_secret }, sdkOptions());
const reportsClient = (a: Account) =>
  new Reports({ apiKey: a.api_key, apiSecret: a.api_secret }, sdkOptions());

async function sendSms(a: Account, to: string, text: string): Promise<string> {
  const res = await fetch(`${stack.url}/sms/json`, {
    method: 'POST',
    headers: { authorization: basic(a.api_key, a.api_secret), 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'Acme', to, text }),
  });
  const body = (await res.json()) as { messages: Record<string, string>[] };
  return body.messages[0]!['message-id']!;
}

/** What a refused call answered: status and problem body. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await call;
  } catch (err) {
    const response = (err as { response?: Response }).response;
    if (!response) throw err;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  throw new Error('the call succeeded');
}

async function smsRecord(a: Account, id: string) {
  const report = await reportsClient(a).getRecords({
    product: Product.SMS,
    accountId: a.api_key,
    direction: Direction.OUTBOUND,
    includeMessage: true,
    id,
  } as Parameters<Reports['getRecords']>[0]);
  return report.records?.[0] as Record<string, unknown>;
}

describe('redact through @vonage/redact', () => {
  it('refuses a redaction within the waiting time (403), then redacts once it has passed', async () => {
    const acct = await newAccount({ redact_after_seconds: 2 });
    const id = await sendSms(acct, '447700900031', 'Secret plans');
    const early = await refusal(
      redactClient(acct).redactMessage({ id, product: ProductType.SMS, type: Type.OUTBOUND }),
    );
    expect(early).toMatchObject({
      status: 403,
      body: {
        type: 'https://developer.nexmo.com/api-errors/redact#premature-redaction',
        title: 'Premature Redaction',
        detail: `You must wait 2 seconds before redacting ID '${id}'`,
      },
    });
    expect(await smsRecord(acct, id)).toMatchObject({ to: '447700900031', messageBody: 'Secret plans' });

    await new Promise((r) => setTimeout(r, 2100));
    await expect(
      redactClient(acct).redactMessage({ id, product: ProductType.SMS, type: Type.OUTBOUND }),
    ).resolves.toBeUndefined();
    const redacted = await smsRecord(acct, id);
    expect(redacted).toMatchObject({
      messageId: id,
      to: '**********',
      messageBody: '**********',
      from: '**********',
    });
    // The price stays: redaction removes personal data, not the charge.
    expect(redacted['totalPrice']).toMatch(/^0\.\d{8}$/);
    // The simulated phone still has its message: it is the recipient's, not the platform's copy.
    expect((await inbox('447700900031')).map((m) => m.text)).toContain('Secret plans');
  });

  it('refuses within the hour by default, with the reference body', async () => {
    const acct = await newAccount();
    const id = await sendSms(acct, '447700900032', 'Not yet');
    const early = await refusal(
      redactClient(acct).redactMessage({ id, product: 'sms' as ProductType, type: 'outbound' as Type }),
    );
    expect(early).toMatchObject({
      status: 403,
      body: { detail: `You must wait 60 minutes before redacting ID '${id}'` },
    });
    expect(early.body['instance']).toBeTruthy();
  });

  it('redacts a verify request from the ledger and from the request itself', async () => {
    const acct = await newAccount({ redact_after_seconds: 0 });
    const started = await fetch(`${stack.url}/verify/json`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
      body: JSON.stringify({ number: '447700900033', brand: 'Acme' }),
    });
    const { request_id } = (await started.json()) as { request_id: string };
    expect(request_id).toMatch(/^[0-9a-f]{32}$/);
    const search = async () => {
      const res = await fetch(`${stack.url}/verify/search/json?request_id=${request_id}`, {
        headers: { authorization: basic(acct.api_key, acct.api_secret) },
      });
      return (await res.json()) as Record<string, unknown>;
    };
    expect((await search()).number).toBe('447700900033');
    await expect(
      redactClient(acct).redactMessage({ id: request_id, product: ProductType.Verify }),
    ).resolves.toBeUndefined();
    expect((await search()).number).toBe('**********');
  });

  it('redacts a number insight lookup from the ledger', async () => {
    const acct = await newAccount({ redact_after_seconds: 0 });
    const res = await fetch(`${stack.url}/ni/basic/json?number=447700900033`, {
      headers: { authorization: basic(acct.api_key, acct.api_secret) },
    });
    const requestId = ((await res.json()) as { request_id: string }).request_id;
    await redactClient(acct).redactMessage({ id: requestId, product: ProductType.NumberInsight });
    const report = await reportsClient(acct).getRecords({
      product: Product.NUMBER_INSIGHT,
      accountId: acct.api_key,
      id: requestId,
    } as Parameters<Reports['getRecords']>[0]);
    expect(report.records?.[0]).toMatchObject({ requestId, number: '**********' });
  });

  it('answers 404 invalid-id, 422 invalid-product and invalid-json, 403 unprovisioned, 401', async () => {
    const acct = await newAccount({ redact_after_seconds: 0 });
    const client = redactClient(acct);
    expect(
      await refusal(
        client.redactMessage({ id: '0A00000000000000', product: ProductType.SMS, type: Type.INBOUND }),
      ),
    ).toMatchObject({
      status: 404,
      body: { title: 'Invalid ID', detail: "ID '0A00000000000000' could not be found (type=MO)" },
    });
    expect(await refusal(client.redactMessage({ id: 'x', product: 'sms2' as ProductType }))).toMatchObject({
      status: 422,
      body: { title: 'Invalid Product', detail: 'No product corresponding to supplied string sms2!' },
    });
    const raw = await fetch(`${stack.url}/v1/redact/transaction`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
      body: '{"id": "x", "product": ',
    });
    expect(raw.status).toBe(422);
    expect(await raw.json()).toMatchObject({ type: 'https://developer.nexmo.com/api-errors#invalid-json' });
    const demo = await newAccount({ demo_mode: true });
    expect(
      await refusal(redactClient(demo).redactMessage({ id: 'x', product: ProductType.Voice })),
    ).toMatchObject({
      status: 403,
      body: { title: 'Authorisation error' },
    });
    const wrong = new Redact({ apiKey: acct.api_key, apiSecret: 'Wrong0000000' }, sdkOptions());
    expect(
      await refusal(wrong.redactMessage({ id: 'x', product: ProductType.SMS, type: Type.OUTBOUND })),
    ).toMatchObject({
      status: 401,
      body: { type: 'UNAUTHORIZED', error_title: 'Unauthorized' },
    });
  });

  it('answers 429 beyond the per-second rate', async () => {
    const acct = await newAccount({ rate_limits: { redact: 2 } });
    const client = redactClient(acct);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        refusal(client.redactMessage({ id: 'x', product: ProductType.Voice })).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(2);
  });
});
