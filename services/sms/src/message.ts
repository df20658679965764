import { httpUrl, type Params, param } from '@comms/core';
import { binaryParts, segment } from '@comms/network';
import { SMS_STATUS, SmsRefusal } from './status';

export type SmsType = 'text' | 'unicode' | 'binary' | 'wappush' | 'vcard' | 'vcal';

/** A submission that passed every rule of spec 4.5 and 8. */
export interface Submission {
  from: string;
  /** Whether `from` is a number (else an alphanumeric sender id). */
  fromIsNumber: boolean;
  to: string;
  type: SmsType;
  /** What reaches the handset: the text, the vCard/vCal, the WAP push title and URL, or the hex body. */
  content: string;
  /** The parts it is sent as: their contents, in order. */
  parts: string[];
  ttl: number;
  statusReportReq: boolean;
  callback?: string;
  messageClass?: number;
  clientRef?: string;
  accountRef?: string;
  udh?: string;
  protocolId?: number;
}

const DEFAULT_TTL = 259_200_000;
/** The most parts one submission may make (the vendor refuses longer messages with status 12). */
export const MAX_PARTS = 30;
const TYPES: readonly SmsType[] = ['text', 'unicode', 'binary', 'wappush', 'vcard', 'vcal'];

const missing = (name: string) => new SmsRefusal(SMS_STATUS.missing, `Missing ${name} param`);
const invalid = (name: string, why: string) =>
  new SmsRefusal(SMS_STATUS.invalid, `Invalid ${name} param: ${why}`);

function bool(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalid(name, 'must be true or false');
}

function integer(value: string, name: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw invalid(name, `must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}

/** `from`: a number of up to 15 digits, or an alphanumeric sender id of up to 11 characters (spaces ignored). */
function sender(raw: string): { from: string; fromIsNumber: boolean } {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/^\+/, '');
  if (/^\d+$/.test(digits)) {
    if (digits.length > 15) throw invalid('from', 'a number has at most 15 digits');
    return { from: digits, fromIsNumber: true };
  }
  const alnum = trimmed.replace(/ /g, '');
  if (!/^[A-Za-z0-9\-_.&+]{1,11}$/.test(alnum)) {
    throw invalid('from', 'an alphanumeric sender id has 1 to 11 letters, digits or - _ . & +');
  }
  return { from: alnum, fromIsNumber: false };
}

/**
 * Reads and checks a submission's fields (everything but credentials), refusing with the status the
 * vendor gives: 2 for a missing field, 3 for an invalid one, 12 when too long, 23 for a bad callback.
 */
export function readSubmission(params: Params): Submission {
  const from = param(params, 'from');
  const to = param(params, 'to');
  if (!from) throw missing('from');
  if (!to) throw missing('to');
  const type = (param(params, 'type') ?? 'text') as SmsType;
  if (!TYPES.includes(type)) throw invalid('type', `must be one of ${TYPES.join(', ')}`);
  const toDigits = to.trim().replace(/^\+/, '');
  if (!/^\d{7,15}$/.test(toDigits)) throw invalid('to', 'must be an E.164 number of 7 to 15 digits');
  const ttlRaw = param(params, 'ttl');
  const ttl = ttlRaw === undefined ? DEFAULT_TTL : integer(ttlRaw, 'ttl', 20_000, 604_800_000);
  const callback = param(params, 'callback');
  if (callback !== undefined && (callback.length > 1000 || !httpUrl.safeParse(callback).success)) {
    throw new SmsRefusal(SMS_STATUS.callback, 'Invalid Callback Url');
  }
  const clientRef = param(params, 'client-ref');
  if (clientRef !== undefined && clientRef.length > 40) throw invalid('client-ref', 'at most 40 characters');
  const accountRef = param(params, 'account-ref');
  if (accountRef !== undefined && accountRef.length > 40)
    throw invalid('account-ref', 'at most 40 characters');
  const classRaw = param(params, 'message-class');
  const messageClass = classRaw === undefined ? undefined : integer(classRaw, 'message-class', 0, 3);

  const { content, parts, udh, protocolId } = body(type, params);
  if (parts.length > MAX_PARTS) {
    throw new SmsRefusal(SMS_STATUS.tooLong, `Message too long: ${parts.length} parts, at most ${MAX_PARTS}`);
  }
  return {
    ...sender(from),
    to: toDigits,
    type,
    content,
    parts,
    ttl,
    statusReportReq: bool(param(params, 'status-report-req'), 'status-report-req', true),
    ...(callback !== undefined ? { callback } : {}),
    ...(messageClass !== undefined ? { messageClass } : {}),
    ...(clientRef !== undefined ? { clientRef } : {}),
    ...(accountRef !== undefined ? { accountRef } : {}),
    ...(udh !== undefined ? { udh } : {}),
    ...(protocolId !== undefined ? { protocolId } : {}),
  };
}

/** The content of each type and the parts it makes. */
function body(
  type: SmsType,
  params: Params,
): { content: string; parts: string[]; udh?: string; protocolId?: number } {
  switch (type) {
    case 'text':
    case 'unicode': {
      const text = param(params, 'text');
      if (text === undefined || text === '') throw missing('text');
      // A text with characters outside GSM-7 goes as UCS-2 whatever `type` says, so nothing is mangled.
      return { content: text, parts: segment(text, type === 'unicode').parts };
    }
    case 'binary': {
      const hex = param(params, 'body');
      const udh = param(params, 'udh');
      if (!hex) throw missing('body');
      if (udh === undefined) throw missing('udh');
      if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw invalid('body', 'must be hex octets');
      if (udh !== '' && !/^([0-9a-fA-F]{2})+$/.test(udh)) throw invalid('udh', 'must be hex octets');
      const pidRaw = param(params, 'protocol-id');
      const protocolId = pidRaw === undefined ? undefined : integer(pidRaw, 'protocol-id', 0, 255);
      // A protocol id of 127 (SIM data download) needs a user data header to address the SIM.
      if (protocolId === 127 && udh === '') throw invalid('protocol-id', 'must agree with udh');
      const count = binaryParts(hex, udh);
      return {
        content: hex.toUpperCase(),
        parts: Array.from({ length: count }, (_, i) => hex.slice(i * 280, (i + 1) * 280).toUpperCase()),
        udh,
        ...(protocolId !== undefined ? { protocolId } : {}),
      };
    }
    case 'wappush': {
      const title = param(params, 'title');
      const url = param(params, 'url');
      if (!title) throw missing('title');
      if (!url) throw missing('url');
      if (!httpUrl.safeParse(url).success) throw invalid('url', 'must be an http or https URL');
      const validity = param(params, 'validity');
      if (validity !== undefined) integer(validity, 'validity', 1, 604_800_000);
      const content = `${title} ${url}`;
      return { content, parts: segment(content).parts };
    }
    case 'vcard':
    case 'vcal': {
      const value = param(params, type);
      if (!value) throw missing(type);
      const expected = type === 'vcard' ? 'VCARD' : 'VCALENDAR';
      if (!value.toUpperCase().includes(`BEGIN:${expected}`))
        throw invalid(type, `must contain BEGIN:${expected}`);
      return { content: value, parts: segment(value).parts };
    }
  }
}
