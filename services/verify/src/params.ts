import { type Amount, type Params, param, parseAmount } from '@comms/core';
import { type Command, WORKFLOWS, type WorkflowId } from './machine';
import { LOCALES, PSD2_LOCALES } from './messages';
import { invalidParameter, missingParameter } from './status';

/** A standard request names a brand; a PSD2 request names a payee and an amount instead. */
export type RequestKind = 'standard' | 'psd2';

/** A new request's parameters that passed every rule of spec 4.6 and 8. */
export interface StartParams {
  kind: RequestKind;
  /** As given: E.164 digits, or any national form when `country` is given. */
  number: string;
  country?: string;
  brand?: string;
  senderId?: string;
  payee?: string;
  amount?: Amount;
  codeLength: 4 | 6;
  lg?: string;
  pinExpirySeconds: number;
  nextEventWaitSeconds: number;
  workflowId: WorkflowId;
  pinCode?: string;
}

/** Spec 4.6 and the reference's defaults and ranges. */
export const LIMITS = {
  brand: 18,
  payee: 18,
  senderId: 11,
  requestId: 32,
  searchIds: 10,
  pinExpiry: { min: 60, max: 3600, default: 300 },
  nextEventWait: { min: 60, max: 900, default: 300 },
} as const;

/** E.164 digits, with or without '+': what `number` must be when no `country` formats it. */
const E164 = /^\+?[1-9]\d{6,14}$/;

/** A code as a check gives it, and a `pin_code` as the account sets it (reference: 4 to 6 characters). */
const CODE = /^[0-9A-Za-z]{4,6}$/;

/** A parameter's value; an empty one counts as absent, as a form field left blank would. */
function value(params: Params, name: string): string | undefined {
  const v = param(params, name)?.trim();
  return v === '' ? undefined : v;
}

function required(params: Params, name: string): string {
  const v = value(params, name);
  if (v === undefined) throw missingParameter(name);
  return v;
}

function integer(params: Params, name: string, range: { min: number; max: number }): number | undefined {
  const v = value(params, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < range.min || Number(v) > range.max) throw invalidParameter(name);
  return Number(v);
}

function text(params: Params, name: string, maxLength: number): string | undefined {
  const v = value(params, name);
  if (v !== undefined && v.length > maxLength) throw invalidParameter(name);
  return v;
}

function oneOf<T extends string | number>(raw: string | undefined, allowed: readonly T[], name: string) {
  if (raw === undefined) return undefined;
  const found = allowed.find((a) => String(a) === raw.toLowerCase());
  if (found === undefined) throw invalidParameter(name);
  return found;
}

/**
 * The vendor's timing rule: when both are given, `pin_expiry` must be an exact multiple of
 * `next_event_wait`, and if it is not it becomes equal to it (every attempt then gets a new code).
 */
function timings(params: Params): { pinExpirySeconds: number; nextEventWaitSeconds: number } {
  const pinExpiry = integer(params, 'pin_expiry', LIMITS.pinExpiry);
  const nextEventWait = integer(params, 'next_event_wait', LIMITS.nextEventWait);
  const wait = nextEventWait ?? LIMITS.nextEventWait.default;
  const expiry = pinExpiry ?? LIMITS.pinExpiry.default;
  const multiple = pinExpiry === undefined || nextEventWait === undefined || expiry % wait === 0;
  return { pinExpirySeconds: multiple ? expiry : wait, nextEventWaitSeconds: wait };
}

function destination(params: Params): { number: string; country?: string } {
  const number = required(params, 'number');
  const country = value(params, 'country');
  if (country === undefined) {
    if (!E164.test(number.replace(/[\s-]/g, ''))) throw invalidParameter('number');
    return { number };
  }
  if (!/^[A-Za-z]{2}$/.test(country)) throw invalidParameter('country');
  return { number, country: country.toUpperCase() };
}

function paymentAmount(params: Params): Amount {
  const raw = required(params, 'amount');
  let amount: Amount;
  try {
    amount = parseAmount(raw);
  } catch {
    throw invalidParameter('amount');
  }
  if (amount <= 0) throw invalidParameter('amount');
  return amount;
}

/**
 * Reads a new request (`/verify/:format`) or a PSD2 request (`/verify/psd2/:format`), refusing with
 * status 2 for a missing parameter and 3 for an invalid one.
 */
export function readStart(params: Params, kind: RequestKind): StartParams {
  const where = destination(params);
  const subject = kind === 'standard' ? brandAndSender(params) : payment(params);
  const lg = oneOf(value(params, 'lg'), kind === 'psd2' ? PSD2_LOCALES : LOCALES, 'lg');
  return {
    kind,
    ...where,
    ...subject,
    codeLength: oneOf(value(params, 'code_length'), [4, 6] as const, 'code_length') ?? 4,
    ...(lg !== undefined ? { lg } : {}),
    ...timings(params),
    workflowId: oneOf(value(params, 'workflow_id'), workflowIds(), 'workflow_id') ?? 1,
  };
}

/** What a standard request shows: its brand, and the sender and code it may set. */
function brandAndSender(params: Params): Pick<StartParams, 'brand' | 'senderId' | 'pinCode'> {
  const brand = text(params, 'brand', LIMITS.brand);
  if (brand === undefined) throw missingParameter('brand');
  const senderId = text(params, 'sender_id', LIMITS.senderId);
  const pin = pinCode(params);
  return {
    brand,
    ...(senderId !== undefined ? { senderId } : {}),
    ...(pin !== undefined ? { pinCode: pin } : {}),
  };
}

/** What a PSD2 request shows: whom the payment is to, and how much. */
function payment(params: Params): Pick<StartParams, 'payee' | 'amount'> {
  const payee = text(params, 'payee', LIMITS.payee);
  if (payee === undefined) throw missingParameter('payee');
  return { payee, amount: paymentAmount(params) };
}

function pinCode(params: Params): string | undefined {
  const v = value(params, 'pin_code');
  if (v !== undefined && !CODE.test(v)) throw invalidParameter('pin_code');
  return v;
}

function workflowIds(): WorkflowId[] {
  return Object.keys(WORKFLOWS).map(Number) as WorkflowId[];
}

/** A request id as the caller gave it: required, at most 32 characters. */
function requestId(params: Params): string {
  const id = required(params, 'request_id');
  if (id.length > LIMITS.requestId) throw invalidParameter('request_id');
  return id;
}

/** Reads a check: the request id and the code, 4 to 6 characters. */
export function readCheck(params: Params): { requestId: string; code: string } {
  const id = requestId(params);
  const code = required(params, 'code');
  if (!CODE.test(code)) throw invalidParameter('code');
  return { requestId: id, code };
}

/**
 * Reads a search: one `request_id`, or up to ten `request_ids` (a repeated parameter), which asks for
 * the list form of the answer.
 */
export function readSearch(params: Params): { ids: string[]; list: boolean } {
  const raw = params['request_ids'];
  const many = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .map((s) => s.trim())
    .filter(Boolean);
  if (many.length === 0) return { ids: [requestId(params)], list: false };
  if (many.length > LIMITS.searchIds || many.some((id) => id.length > LIMITS.requestId)) {
    throw invalidParameter('request_ids');
  }
  return { ids: [...new Set(many)], list: true };
}

/** Reads a control command: the request id and `cmd`. */
export function readControl(params: Params): { requestId: string; command: Command } {
  const id = requestId(params);
  const command = oneOf(required(params, 'cmd'), ['cancel', 'trigger_next_event'] as const, 'cmd')!;
  return { requestId: id, command };
}
