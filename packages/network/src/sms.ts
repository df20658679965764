import type { NumberInfo } from './directory';

/** A delivery receipt's `status` (spec 6). */
export type ReceiptStatus = 'delivered' | 'expired' | 'failed' | 'rejected';

/** What the simulated network does with an SMS to a number, decided when it is submitted. */
export type SmsOutcome =
  /** Refused at submission with this SMS API status (7 barred, 33 de-activated). */
  | { kind: 'refused'; status: 7 | 33 }
  /** Accepted; after `delayMs` the receipt says `status` with `errCode`, and only a delivered one reaches the handset. */
  | { kind: 'accepted'; status: ReceiptStatus; errCode: number; delayMs: number };

/** Receipt error codes of the vendor's delivery receipt documentation used here. */
export const RECEIPT_ERR = {
  delivered: 0,
  absentTemporary: 2,
  antiSpam: 6,
  networkError: 8,
  illegalNumber: 9,
  unreachable: 12,
} as const;

/** The vendor's description of each delivery-receipt error code the simulated network gives. */
export const RECEIPT_ERR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  [RECEIPT_ERR.delivered]: 'Delivered',
  [RECEIPT_ERR.absentTemporary]: 'Absent Subscriber - Temporary',
  [RECEIPT_ERR.antiSpam]: 'Anti-Spam Rejection',
  [RECEIPT_ERR.networkError]: 'Network Error',
  [RECEIPT_ERR.illegalNumber]: 'Illegal Number',
  [RECEIPT_ERR.unreachable]: 'Destination Unreachable',
};

/** The longest an expiring message waits, so that a test sees its receipt soon. */
const MAX_EXPIRY_MS = 20_000;

/**
 * What happens to an SMS sent to a looked-up number. Ordinary phones get it after a short delay
 * that varies by number (0.5-2.5 s); magic numbers (README) pick the other outcomes.
 *
 * @example
 * smsOutcome(info, 259200000) // { kind: 'accepted', status: 'delivered', errCode: 0, delayMs: 1300 }
 */
export function smsOutcome(info: NumberInfo, ttlMs: number): SmsOutcome {
  const expiry = Math.min(ttlMs, MAX_EXPIRY_MS);
  const accepted = (status: ReceiptStatus, errCode: number, delayMs: number): SmsOutcome => ({
    kind: 'accepted',
    status,
    errCode,
    delayMs,
  });
  switch (info.magic?.kind) {
    case 'barred':
      return { kind: 'refused', status: 7 };
    case 'sms_deactivated':
      return { kind: 'refused', status: 33 };
    case 'sms_slow':
      return accepted('delivered', RECEIPT_ERR.delivered, 30_000);
    case 'sms_failed':
      return accepted('failed', RECEIPT_ERR.networkError, 1000);
    case 'sms_expired':
    case 'absent':
      return accepted('expired', RECEIPT_ERR.absentTemporary, expiry);
    case 'sms_rejected':
      return accepted('rejected', RECEIPT_ERR.antiSpam, 1000);
    case 'undeliverable':
      return accepted('failed', RECEIPT_ERR.unreachable, 1000);
    case 'bad_number':
      return accepted('failed', RECEIPT_ERR.illegalNumber, 1000);
  }
  if (!info.valid) return accepted('failed', RECEIPT_ERR.illegalNumber, 1000);
  return accepted('delivered', RECEIPT_ERR.delivered, 500 + (Number(info.msisdn.slice(-4)) % 2001));
}
