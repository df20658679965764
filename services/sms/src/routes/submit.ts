import {
  type Amount,
  type AuthContext,
  authenticate,
  authOf,
  errorStyle,
  type FamilyEnv,
  formatAmount,
  negotiateFormat,
  messageId as newMessageId,
  readParams,
  respond,
} from '@comms/core';
import { lookupNumber, type NumberInfo, priceFor, smsOutcome } from '@comms/network';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { OutboxPart } from '../durable/outbox';
import { readSubmission, type Submission } from '../message';
import { accounts, numbers, outboxOf } from '../objects';
import { refusalBody, SMS_STATUS, SmsRefusal, smsStyle } from '../status';

/** `POST /sms/:format` (spec 4.5, 2.7): send an SMS. */
export const submit = new Hono<FamilyEnv<Env>>();

/** North American destinations take SMS only from a number the sender rents (10DLC, toll-free). */
const NEEDS_OWN_NUMBER = new Set(['US', 'CA']);

const withPathFormat = createMiddleware<FamilyEnv<Env>>(async (c, next) => {
  c.set('format', negotiateFormat(c, c.req.param('format') ?? 'json'));
  await next();
});

submit.post(
  '/sms/:format?',
  errorStyle(smsStyle),
  withPathFormat,
  authenticate({ modes: ['key-secret', 'signature'], store: (c) => accounts(c.env as Env) }),
  async (c) => {
    try {
      const submission = readSubmission(await readParams(c));
      const accepted = await send(c.env, authOf(c), submission);
      return respond(
        c,
        { 'message-count': String(accepted.length), messages: accepted.map((m) => m.json) },
        {
          root: 'mt-submission-response',
          xml: { messages: { '@count': accepted.length, message: accepted.map((m) => m.xml) } },
        },
      );
    } catch (err) {
      if (err instanceof SmsRefusal) return refusalBody(c, err.status, err.text);
      throw err;
    }
  },
);

interface AcceptedPart {
  json: Record<string, string>;
  xml: Record<string, string>;
}

/** Checks, prices, charges and schedules a submission; refuses with the vendor's status otherwise. */
async function send(env: Env, auth: AuthContext, sms: Submission): Promise<AcceptedPart[]> {
  const ledger = accounts(env);
  if (!(await ledger.takeThroughput(auth.apiKey, 'outbound-sms'))) {
    throw new SmsRefusal(SMS_STATUS.throttled, 'Throughput Rate Exceeded - please wait [ 1000 ] and retry');
  }
  const info = lookupNumber(sms.to);
  if (!info.ok)
    throw new SmsRefusal(SMS_STATUS.invalidMessage, 'Invalid Message: unrecognised number prefix');
  await checkDestination(env, auth, sms, info);
  const outcome = smsOutcome(info, sms.ttl);
  if (outcome.kind === 'refused') {
    throw outcome.status === 33
      ? new SmsRefusal(SMS_STATUS.deactivated, 'Number de-activated')
      : new SmsRefusal(SMS_STATUS.barred, 'Number barred');
  }
  const networkCode = info.currentCarrier?.networkCode ?? '';
  const price = priceFor('sms', info.country.code, networkCode || undefined);
  if (price === undefined)
    throw new SmsRefusal(SMS_STATUS.invalidMessage, 'Invalid Message: no route to this country');

  const receiptUrl = sms.statusReportReq
    ? (sms.callback ?? ((await ledger.settings(auth.apiKey))?.['dr-callback-url'] || null))
    : null;
  const messageRef = newMessageId();
  const charged: { id: string; balance: Amount }[] = [];
  for (const [i, content] of sms.parts.entries()) {
    const id = newMessageId();
    const result = await ledger.charge(auth.apiKey, {
      product: 'SMS',
      direction: 'outbound',
      id,
      amount: price,
      record: usageRecord(sms, info, id, content, price, outcome.status, i + 1),
    });
    if (!result.ok) {
      // All parts or none: a message the balance cannot finish is not sent at all.
      for (const done of charged) {
        await ledger.refund(auth.apiKey, {
          product: 'SMS',
          direction: 'outbound',
          id: done.id,
          amount: price,
        });
      }
      throw new SmsRefusal(SMS_STATUS.quota, 'Partner quota exceeded');
    }
    charged.push({ id, balance: result.balance });
  }

  const parts: OutboxPart[] = charged.map(({ id }, i) => ({
    messageId: id,
    messageRef,
    part: i + 1,
    parts: charged.length,
    from: sms.from,
    to: sms.to,
    content: sms.content,
    networkCode,
    price,
    outcome: outcome.status,
    errCode: outcome.errCode,
    // Parts of one message reach the network together and settle together.
    delayMs: outcome.delayMs,
    receiptUrl,
    ...(sms.clientRef !== undefined ? { clientRef: sms.clientRef } : {}),
  }));
  await outboxOf(env, auth.apiKey).accept(auth.apiKey, parts);

  const refs = {
    ...(sms.clientRef !== undefined ? { 'client-ref': sms.clientRef } : {}),
    ...(sms.accountRef !== undefined ? { 'account-ref': sms.accountRef } : {}),
  };
  return charged.map(({ id, balance }) => {
    const remaining = formatAmount(balance);
    const messagePrice = formatAmount(price);
    return {
      json: {
        to: sms.to,
        'message-id': id,
        status: '0',
        'remaining-balance': remaining,
        'message-price': messagePrice,
        network: networkCode,
        ...refs,
      },
      // The XML names of spec 2.7.
      xml: {
        to: sms.to,
        messageId: id,
        status: '0',
        remainingBalance: remaining,
        messagePrice,
        network: networkCode,
        ...refs,
      },
    };
  });
}

/** Demo accounts send only to test numbers; North America needs one's own number as sender. */
async function checkDestination(env: Env, auth: AuthContext, sms: Submission, info: NumberInfo) {
  const flags = await accounts(env).flags(auth.apiKey);
  if (flags?.demoMode && info.magic === null) {
    throw new SmsRefusal(SMS_STATUS.demoDestination, 'Non White-listed Destination - rejected');
  }
  if (NEEDS_OWN_NUMBER.has(info.country.code)) {
    const owner = sms.fromIsNumber ? await numbers(env).owner(sms.from) : null;
    if (owner?.apiKey !== auth.apiKey) {
      throw new SmsRefusal(SMS_STATUS.sender, 'Illegal Sender Address - rejected');
    }
  }
}

/** The report fields of an outbound SMS part (reports, spec 2.14). */
function usageRecord(
  sms: Submission,
  info: NumberInfo,
  id: string,
  content: string,
  price: Amount,
  status: string,
  part: number,
) {
  return {
    message_id: id,
    client_ref: sms.clientRef ?? null,
    account_ref: sms.accountRef ?? null,
    direction: 'outbound',
    from: sms.from,
    to: sms.to,
    text: content,
    type: sms.type,
    part,
    country: info.country.code,
    country_name: info.country.name,
    network: info.currentCarrier?.networkCode ?? null,
    network_name: info.currentCarrier?.name ?? null,
    price: formatAmount(price),
    currency: 'EUR',
    status,
    date_received: new Date().toISOString(),
  };
}
