import { formatAmount, type JsonObject, type JsonValue, type ReportableUsage } from '@comms/core';
import { RECEIPT_ERR, RECEIPT_ERR_DESCRIPTIONS } from '@comms/network';
import { idField, type ReportProduct, recordFields } from './products';

/** How a report's records are shaped: the product's fields, and whether the message text is shown. */
export interface RecordShape {
  product: ReportProduct;
  fields: readonly string[];
  includeMessage: boolean;
}

/**
 * The shape of a report's records.
 *
 * @example
 * recordShape({ product: 'SMS', direction: 'outbound', includeMessage: true }).fields.includes('message_body') // true
 */
export function recordShape(filter: {
  product: ReportProduct;
  direction?: 'inbound' | 'outbound';
  includeMessage: boolean;
}): RecordShape {
  const message = filter.includeMessage && (filter.product === 'SMS' || filter.product === 'MESSAGES');
  return {
    product: filter.product,
    fields: recordFields(filter.product, filter.direction, message),
    includeMessage: message,
  };
}

/** Fields holding a point in time, shown in one format whatever the family stored. */
const DATE_FIELDS = new Set([
  'date_received',
  'date_finalized',
  'date_start',
  'date_end',
  'first_event_date',
  'last_event_date',
  'call_date_start',
]);

/**
 * The receipt error code of each final SMS status, for records stored before the SMS service kept
 * its receipt's own code; `failed` has several causes, which those records do not tell apart.
 */
const SMS_ERRORS: Readonly<Record<string, [string | null, string]>> = {
  delivered: receiptError(RECEIPT_ERR.delivered),
  expired: receiptError(RECEIPT_ERR.absentTemporary),
  rejected: receiptError(RECEIPT_ERR.antiSpam),
  failed: [null, 'Failed'],
};

function receiptError(code: number): [string, string] {
  return [String(code), RECEIPT_ERR_DESCRIPTIONS[code]!];
}

/**
 * One record of a report from one ledger entry: the product's fields taken from what the family
 * recorded, with the values the ledger itself knows best (the account, when it was received, and the
 * price actually charged, refunds netted) put in. Fields nobody recorded are null; a redacted
 * record shows the scrubbed values.
 *
 * @example
 * reportRecord(shape, usage, 'abcd1234') // { account_id: 'abcd1234', message_id: '0A0000001234ABCD', ..., total_price: '0.03330000' }
 */
export function reportRecord(
  shape: RecordShape,
  usage: ReportableUsage,
  accountId: string,
  now = Date.now(),
): JsonObject {
  const stored = inFlightView(parseRecord(usage.record), now);
  const known = ledgerValues(shape, usage, stored, accountId);
  const out: JsonObject = {};
  for (const field of shape.fields) {
    const value = field in known ? known[field] : stored[field];
    out[field] = DATE_FIELDS.has(field) ? reportDate(value) : (value ?? null);
  }
  return out;
}

/** Values the ledger knows whatever the family recorded. */
function ledgerValues(
  shape: RecordShape,
  usage: ReportableUsage,
  stored: JsonObject,
  accountId: string,
): Record<string, JsonValue | undefined> {
  const charged = formatAmount(usage.amount - usage.refunded);
  const id = idField(shape.product);
  const values: Record<string, JsonValue | undefined> = {
    account_id: accountId,
    [id]: stored[id] ?? usage.id,
    direction: usage.direction ?? stored['direction'],
    currency: stored['currency'] ?? 'EUR',
    total_price: charged,
    // Verify's `price` is what the request cost; calls keep their own per-minute `price` when recorded.
    price: shape.product === 'VERIFY-API' ? charged : (stored['price'] ?? charged),
    date_received: stored['date_received'] ?? new Date(usage.createdAt).toISOString(),
  };
  if (shape.includeMessage) values['message_body'] = stored['text'] ?? stored['message_body'] ?? null;
  if (shape.product === 'SMS') {
    const [code, description] = SMS_ERRORS[String(stored['status'])] ?? [null, null];
    values['error_code'] = 'error_code' in stored ? stored['error_code'] : code;
    values['error_code_description'] =
      'error_code_description' in stored ? stored['error_code_description'] : description;
  }
  return values;
}

/**
 * An SMS whose outcome the network has decided but not yet reached (its receipt is still to come)
 * is shown as the vendor shows one in flight: `accepted`, without finalization, latency or error.
 */
function inFlightView(stored: JsonObject, now: number): JsonObject {
  const finalized = stored['date_finalized'];
  if (typeof finalized !== 'string' || !(Date.parse(finalized) > now)) return stored;
  return {
    ...stored,
    status: 'accepted',
    date_finalized: null,
    latency: null,
    error_code: null,
    error_code_description: null,
  };
}

function parseRecord(text: string): JsonObject {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
  } catch {
    return {};
  }
}

/**
 * A stored time in the reports' format, `yyyy-mm-ddThh:mm:ss+00:00`. Reads ISO strings and the
 * vendor's `yyyy-mm-dd hh:mm:ss` (UTC); anything else is shown as stored.
 *
 * @example
 * reportDate('2026-04-20 10:00:05') // '2026-04-20T10:00:05+00:00'
 */
export function reportDate(value: JsonValue | undefined): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return value;
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? value : isoSeconds(ms);
}

/**
 * An instant as the reports API shows times.
 *
 * @example
 * isoSeconds(0) // '1970-01-01T00:00:00+00:00'
 */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
