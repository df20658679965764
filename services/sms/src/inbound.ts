import { type InboundSms, type InboundSmsResult, messageId, vendorDateTime, webhookJob } from '@comms/core';
import { segment } from '@comms/network';
import { accounts, numbers } from './objects';

/**
 * A phone sends an SMS to a number: the owner of the number gets it at the number's `moHttpUrl`,
 * else the account's `mo-callback-url`, one webhook per part of a long text (spec 6), retried by
 * the webhook service for 24 hours until a 2xx.
 */
export async function receiveInbound(env: Env, sms: InboundSms): Promise<InboundSmsResult> {
  const from = String(sms.from ?? '').replace(/^\+/, '');
  const to = String(sms.to ?? '').replace(/^\+/, '');
  if (!/^\d{7,15}$/.test(from) || !/^\d{7,15}$/.test(to)) {
    return { ok: false, reason: 'invalid', detail: 'from and to must be E.164 numbers of 7 to 15 digits' };
  }
  if (typeof sms.text !== 'string' || sms.text === '')
    return { ok: false, reason: 'invalid', detail: 'text is required' };
  const owner = await numbers(env).owner(to);
  if (!owner) return { ok: false, reason: 'not-rented', detail: `Nobody rents ${to}` };
  const url = owner.moHttpUrl || (await accounts(env).settings(owner.apiKey))?.['mo-callback-url'] || null;

  const { encoding, parts } = segment(sms.text);
  const ids = parts.map(() => messageId());
  const concatRef = String(Math.floor(Math.random() * 256));
  const now = new Date();
  const keyword = (sms.text.trim().split(/\s+/)[0] ?? '').toUpperCase();
  for (const [i, text] of parts.entries()) {
    const id = ids[i] ?? messageId();
    await accounts(env).charge(owner.apiKey, {
      product: 'SMS',
      direction: 'inbound',
      id,
      amount: 0,
      record: {
        message_id: id,
        direction: 'inbound',
        from,
        to,
        text,
        country: owner.country,
        price: '0.00000000',
        currency: 'EUR',
        date_received: now.toISOString(),
        status: 'delivered',
      },
    });
    if (!url) continue;
    await env.WEBHOOKS_QUEUE.send(
      webhookJob({
        accountKey: owner.apiKey,
        kind: 'sms-inbound',
        url,
        method: 'POST',
        encoding: 'json',
        signing: 'legacy',
        body: {
          'api-key': owner.apiKey,
          msisdn: from,
          to,
          messageId: id,
          text,
          type: encoding === 'gsm7' ? 'text' : 'unicode',
          keyword,
          'message-timestamp': vendorDateTime(now),
          ...(parts.length > 1
            ? {
                concat: 'true',
                'concat-ref': concatRef,
                'concat-total': String(parts.length),
                'concat-part': String(i + 1),
              }
            : {}),
        },
      }),
    );
  }
  return { ok: true, message_ids: ids, webhook_url: url };
}
