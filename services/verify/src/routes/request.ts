import {
  type AuthContext,
  authOf,
  type FamilyEnv,
  formatAmount,
  hexId,
  readParams,
  type TransactResult,
} from '@comms/core';
import { lookupNumber, type NumberInfo, priceFor } from '@comms/network';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { type RequestFacts, usageRecord, VERIFY_PRICE } from '../facts';
import { latestEnd, type Plan, WORKFLOWS } from '../machine';
import { defaultLocale, type Subject } from '../messages';
import { endpoint } from '../middleware';
import { accounts, lockName, lockOf, requestOf } from '../objects';
import { type RequestKind, readStart, type StartParams } from '../params';
import { answer } from '../render';
import { invalidParameter, STATUS_TEXT, VERIFY_STATUS, VerifyRefusal } from '../status';

/**
 * `GET|POST /verify/:format` (spec 4.6) and `GET|POST /verify/psd2/:format` (reference
 * `verifyRequestWithPSD2`, which the official SDK uses when no brand is given): start a verification.
 */
export const request = new Hono<FamilyEnv<Env>>();

const PATHS: readonly [string, RequestKind][] = [
  ['/verify/psd2/:format', 'psd2'],
  ['/verify/:format', 'standard'],
];

for (const [path, kind] of PATHS) {
  request.use(path, ...endpoint('request'));
  request.on(['GET', 'POST'], path, (c) => startRequest(c, kind));
}

/**
 * Lines no verification reaches (status 15): premium-rate numbers and pagers take neither an SMS nor
 * a call that reads out a code.
 */
const UNSUPPORTED_LINES: ReadonlySet<string> = new Set(['landline_premium', 'pager']);

/**
 * Checks, holds the price of, and starts a verification. Refusals come in the vendor's order of
 * concern: the parameters (2, 3), the account's right to `pin_code` (20), the number (3, 7, 15), a
 * verification already in progress to it (10), then the ledger (1, 29, 9).
 */
async function startRequest(c: Context<FamilyEnv<Env>>, kind: RequestKind): Promise<Response> {
  const auth = authOf(c);
  const start = readStart(await readParams(c), kind);
  if (start.pinCode !== undefined) await requirePinCodeAllowed(c.env, auth);
  const info = verifiableNumber(start);
  const requestId = hexId();
  const now = Date.now();
  const plan = planOf(start);
  const facts = factsOf(start, info, requestId, auth.apiKey);
  const name = lockName(auth.apiKey, facts.number);
  const lock = lockOf(c.env, name);
  const taken = await lock.acquire(name, requestId, latestEnd(plan, now));
  if (!taken.ok) throw new VerifyRefusal(VERIFY_STATUS.concurrent, STATUS_TEXT.concurrent, taken.holder);
  try {
    await holdPrice(c.env, facts, info, now);
  } catch (err) {
    await lock.release(requestId);
    throw err;
  }
  try {
    await requestOf(c.env, requestId).start(facts, plan);
  } catch (err) {
    await undoHold(c.env, facts, now);
    await lock.release(requestId);
    throw err;
  }
  return answer(c, 'request', { request_id: requestId, status: '0' });
}

async function requirePinCodeAllowed(env: Env, auth: AuthContext): Promise<void> {
  const flags = await accounts(env).flags(auth.apiKey);
  if (!flags?.pinCodeAllowed) {
    throw new VerifyRefusal(VERIFY_STATUS.pinCodeNotAllowed, STATUS_TEXT.pinCodeNotAllowed);
  }
}

/**
 * What the simulated network knows of the number, refusing numbers it cannot verify: unreadable or
 * not in service (3), barred (7, magic suffix 103), and numbers no network routes a code to (15: a
 * failed lookup, magic suffix 108, and premium-rate or pager lines).
 */
function verifiableNumber(start: StartParams): NumberInfo {
  const info = lookupNumber(start.number, start.country);
  if (!info.ok) throw invalidParameter(info.reason === 'unknown-country' ? 'country' : 'number');
  if (!info.valid) throw invalidParameter('number');
  if (info.magic?.kind === 'barred')
    throw new VerifyRefusal(VERIFY_STATUS.blacklisted, STATUS_TEXT.blacklisted);
  if (info.lookupOutcome === 'failed' || UNSUPPORTED_LINES.has(info.lineType) || !attemptPrices(info)) {
    throw new VerifyRefusal(VERIFY_STATUS.unsupportedNetwork, STATUS_TEXT.unsupportedNetwork);
  }
  return info;
}

/** What an SMS to the number's network and a minute of a call to it cost; undefined without a route. */
function attemptPrices(info: NumberInfo): RequestFacts['attemptPrices'] | undefined {
  const network = info.currentCarrier?.networkCode;
  const sms = priceFor('sms', info.country.code, network);
  const tts = priceFor('voice', info.country.code, network);
  return sms === undefined || tts === undefined ? undefined : { sms, tts };
}

function planOf(start: StartParams): Plan {
  return {
    workflow: WORKFLOWS[start.workflowId],
    pinExpiryMs: start.pinExpirySeconds * 1000,
    nextEventWaitMs: start.nextEventWaitSeconds * 1000,
    codeLength: start.codeLength,
    ...(start.pinCode !== undefined ? { pinCode: start.pinCode } : {}),
  };
}

function factsOf(start: StartParams, info: NumberInfo, requestId: string, apiKey: string): RequestFacts {
  const subject: Subject =
    start.kind === 'standard'
      ? { kind: 'standard', brand: start.brand! }
      : { kind: 'psd2', payee: start.payee!, amount: formatAmount(start.amount!, 2) };
  const carrier = info.currentCarrier;
  return {
    requestId,
    apiKey,
    kind: start.kind,
    number: info.msisdn,
    senderId: start.senderId ?? null,
    subject,
    locale: start.lg ?? defaultLocale(info.country.code, start.kind),
    country: { code: info.country.code, name: info.country.name },
    network: carrier ? { code: carrier.networkCode, name: carrier.name } : null,
    lineType: info.lineType,
    // A switched-off or unreachable phone (magic suffixes 102, 104) gets nothing.
    reachable: info.reachable !== 'absent' && info.reachable !== 'undeliverable',
    attemptPrices: attemptPrices(info)!,
  };
}

/**
 * Holds the verification's price with the ledger, in the same step as the throughput unit and the
 * demo-mode check: the vendor charges only a success, but an account that could not pay for one is
 * refused up front (status 9). The request gives the price back if it ends any other way.
 */
async function holdPrice(env: Env, facts: RequestFacts, info: NumberInfo, now: number): Promise<void> {
  const result = await accounts(env).transact(facts.apiKey, {
    throughput: 'verify',
    // Demo accounts may verify only the test numbers of the simulated network.
    refuseDemo: info.magic === null,
    charges: [
      {
        product: 'VERIFY-API',
        direction: 'outbound',
        id: facts.requestId,
        amount: VERIFY_PRICE,
        record: usageRecord(facts, {
          status: 'IN PROGRESS',
          submittedAt: now,
          finalizedAt: null,
          events: [],
        }),
      },
    ],
  });
  if (!result.ok) throw refusalOf(result.reason);
}

/** Gives the held price back when the request could not be started after all. */
async function undoHold(env: Env, facts: RequestFacts, now: number): Promise<void> {
  await accounts(env).refund(facts.apiKey, {
    product: 'VERIFY-API',
    direction: 'outbound',
    id: facts.requestId,
    amount: VERIFY_PRICE,
    record: usageRecord(facts, { status: 'FAILED', submittedAt: now, finalizedAt: now, events: [] }),
  });
}

function refusalOf(reason: Extract<TransactResult, { ok: false }>['reason']): VerifyRefusal {
  switch (reason) {
    case 'throttled':
      return new VerifyRefusal(VERIFY_STATUS.throttled, STATUS_TEXT.throttled);
    case 'demo-mode':
      return new VerifyRefusal(VERIFY_STATUS.demoDestination, STATUS_TEXT.demoDestination);
    case 'insufficient-funds':
      return new VerifyRefusal(VERIFY_STATUS.quota, STATUS_TEXT.quota);
    case 'no-account':
      return new VerifyRefusal(VERIFY_STATUS.credentials, 'Invalid credentials were provided');
  }
}
