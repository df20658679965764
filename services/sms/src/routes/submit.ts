import {
  type Amount,
  type AuthContext,
  authenticate,
  authOf,
  cachedCredentials,
  errorStyle,
  type FamilyEnv,
  formatAmount,
  negotiateFormat,
  messageId as newMessageId,
  readParams,
  respond,
} from '@comms/core';
import {
  lookupNumber,
  type NumberInfo,
  priceFor,
  RECEIPT_ERR_DESCRIPTIONS,
  smsOutcome,
} from '@comms/network';
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
  authenticate({
    modes: ['key-secret', 'signature'],
    store: (c) => cachedCredentials(accounts(c.env as Env)),
  }),
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
  const info = lookupNumber(sms.to);
  if (!info.ok)
    throw new SmsRefusal(SMS_STATUS.invalidMessage, 'Invalid Message: unrecognised number prefix');
  if (NEEDS_OWN_NUMBER.has(info.country.code)) await checkSender(env, auth, sms);
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

  const ids = sms.parts.map(() => newMessageId());
  // Throughput, demo mode and the charge of every part in one step of the ledger.
  const result = await accounts(env).transact(auth.apiKey, {
    throughput: 'outbound-sms',
    // Demo accounts may send only to the test numbers of the simulated network.
    refuseDemo: info.magic === null,
    charges: sms.parts.map((content, i) => ({
      product: 'SMS',
      direction: 'outbound',
      id: ids[i]!,
      amount: price,
      record: usageRecord(sms, info, ids[i]!, content, price, outcome, i + 1),
    })),
  });
  if (!result.ok) throw refusalFor(result.reason);

  const receiptUrl = sms.statusReportReq
    ? (sms.callback ?? (result.settings['dr-callback-url'] || null))
    : null;
  const messageRef = newMessageId();
  const parts: OutboxPart[] = ids.map((id, i) => ({
    messageId: id,
    messageRef,
    part: i + 1,
    parts: ids.length,
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
  const messagePrice = formatAmount(price);
  return ids.map((id, i) => {
    const remaining = formatAmount(result.balances[i]!);
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

function refusalFor(reason: 'no-account' | 'throttled' | 'demo-mode' | 'insufficient-funds'): SmsRefusal {
  switch (reason) {
    case 'throttled':
      return new SmsRefusal(
        SMS_STATUS.throttled,
        'Throughput Rate Exceeded - please wait [ 1000 ] and retry',
      );
    case 'demo-mode':
      return new SmsRefusal(SMS_STATUS.demoDestination, 'Non White-listed Destination - rejected');
    case 'insufficient-funds':
      return new SmsRefusal(SMS_STATUS.quota, 'Partner quota exceeded');
    case 'no-account':
      return new SmsRefusal(SMS_STATUS.credentials, 'Bad Credentials');
  }
}

/** North America takes SMS only from a number the sender rents. */
async function checkSender(env: Env, auth: AuthContext, sms: Submission) {
  const owner = sms.fromIsNumber ? await numbers(env).owner(sms.from) : null;
  if (owner?.apiKey !== auth.apiKey)
    throw new SmsRefusal(SMS_STATUS.sender, 'Illegal Sender Address - rejected');
}

/** The report fields of an outbound SMS part (reports, spec 2.14). */
function usageRecord(
  sms: Submission,
  info: NumberInfo,
  id: string,
  content: string,
  price: Amount,
  outcome: { status: string; errCode: number; delayMs: number },
  part: number,
) {
  const now = Date.now();
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
    // The network decides the outcome at submission; reports show it once its time has come.
    status: outcome.status,
    date_received: new Date(now).toISOString(),
    date_finalized: new Date(now + outcome.delayMs).toISOString(),
    latency: outcome.delayMs,
    error_code: String(outcome.errCode),
    error_code_description: RECEIPT_ERR_DESCRIPTIONS[outcome.errCode] ?? null,
  };
}
