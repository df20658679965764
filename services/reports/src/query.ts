import { type Direction, httpUrl, type InvalidParameter, type UsageCursor } from '@comms/core';
import { invalidFilter, unprocessable } from './errors';
import { PRODUCT_RULES, REPORT_PRODUCTS, type ReportProduct } from './products';

export const SMS_STATUSES = [
  'delivered',
  'expired',
  'failed',
  'rejected',
  'accepted',
  'buffered',
  'unknown',
  'deleted',
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

export const CONVERSATION_TYPES = ['ip-voice', 'cs-custom-event'] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];

/** A point in time as given (echoed back) and as epoch ms (queried). */
export interface Instant {
  text: string;
  ms: number;
}

/** The filters of a report, synchronous or asynchronous (spec 4.12). */
export interface ReportFilter {
  accountId: string;
  product: ReportProduct;
  direction?: Direction;
  /** Transaction ids (synchronous only). */
  ids?: string[];
  dateStart?: Instant;
  dateEnd?: Instant;
  includeMessage: boolean;
  showConcatenated?: boolean;
  type?: ConversationType;
  status?: SmsStatus;
}

/** A synchronous query: its filters and where the page starts. */
export interface SyncQuery extends ReportFilter {
  cursor?: UsageCursor;
}

/** An asynchronous report request (reference `create-async-report`). */
export interface AsyncRequest extends ReportFilter {
  dateStart: Instant;
  dateEnd: Instant;
  includeSubaccounts: boolean;
  callbackUrl?: string;
}

/** The longest window of a synchronous query (spec 8). */
export const MAX_SYNC_WINDOW_MS = 24 * 3600_000;
/** An asynchronous report without dates covers the last seven days (reference `date_start`). */
const DEFAULT_ASYNC_WINDOW_MS = 7 * 24 * 3600_000;
/** At most one page of ids, so that one ledger page answers them all. */
export const MAX_IDS = 1000;

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/;
const ACCOUNT_ID = /^[0-9a-zA-Z]{8}$/;

/** Parameters as they arrive: query strings, or JSON values of a request body. */
export type RawParams = Record<string, unknown>;

/** Collects the violations of one request, so that every parameter at fault is named at once. */
class Violations {
  readonly list: InvalidParameter[] = [];
  add(name: string, reason: string) {
    this.list.push({ name, reason });
  }
  missing(name: string) {
    this.add(name, 'Missing required parameter');
  }
  throwIfAny() {
    if (this.list.length) throw unprocessable(this.list);
  }
}

/**
 * Reads and checks the query of `GET /v2/reports/records`: every rule of spec 4.12. Throws a 422
 * problem naming each parameter at fault; `id` with `status` or dates is the "Invalid filter" problem.
 *
 * @example
 * parseSyncQuery({ account_id: 'abcd1234', product: 'SMS', direction: 'outbound', id: '0A00000012345678' })
 */
export function parseSyncQuery(raw: RawParams): SyncQuery {
  const v = new Violations();
  const base = readCommon(raw, v);
  const ids = readIds(raw, v);
  if (ids) {
    const excluded = ['status', 'date_start', 'date_end'].filter((name) => present(raw[name]));
    if (excluded.length) throw invalidFilter(excluded);
  }
  const window = readWindow(raw, v, { required: !ids, maxMs: MAX_SYNC_WINDOW_MS });
  const cursor = readCursor(raw, v);
  v.throwIfAny();
  return {
    ...base!,
    ...(ids ? { ids } : {}),
    ...(window.start ? { dateStart: window.start } : {}),
    ...(window.end ? { dateEnd: window.end } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/**
 * Reads and checks the body of `POST /v2/reports`: the same filters, no `id` (only the synchronous
 * variant retrieves by id), dates defaulting to the last seven days without the 24-hour limit,
 * `include_subaccounts` and `callback_url`.
 */
export function parseAsyncRequest(raw: RawParams, now = Date.now()): AsyncRequest {
  const v = new Violations();
  const base = readCommon(raw, v);
  if (present(raw['id'])) v.add('id', 'Retrieval by id is only supported by the synchronous API');
  const window = readWindow(raw, v, { required: false });
  const includeSubaccounts = readBoolean(raw, 'include_subaccounts', v) ?? false;
  const callbackUrl = readCallbackUrl(raw, v);
  v.throwIfAny();
  const end = window.end ?? instant(now);
  const start = window.start ?? instant(Math.min(end.ms, now) - DEFAULT_ASYNC_WINDOW_MS);
  return {
    ...base!,
    dateStart: start,
    dateEnd: end,
    includeSubaccounts,
    ...(callbackUrl ? { callbackUrl } : {}),
  };
}

/** The filters both variants share; undefined only when violations were recorded. */
function readCommon(raw: RawParams, v: Violations): ReportFilter | undefined {
  const accountId = readString(raw, 'account_id');
  if (accountId === undefined) v.missing('account_id');
  else if (!ACCOUNT_ID.test(accountId)) v.add('account_id', 'Must be an API key of 8 characters');

  const productText = readString(raw, 'product');
  let product: ReportProduct | undefined;
  if (productText === undefined) v.missing('product');
  else if (!(REPORT_PRODUCTS as readonly string[]).includes(productText)) {
    v.add(
      'product',
      `Could not resolve product name. Please use one of the following values [${REPORT_PRODUCTS.join(', ')}]`,
    );
  } else product = productText as ReportProduct;

  const direction = readEnum(raw, 'direction', ['inbound', 'outbound'] as const, v);
  const includeMessage = readBoolean(raw, 'include_message', v);
  const showConcatenated = readBoolean(raw, 'show_concatenated', v);
  const type = readEnum(raw, 'type', CONVERSATION_TYPES, v);
  const status = readEnum(raw, 'status', SMS_STATUSES, v);
  if (product) {
    const rules = PRODUCT_RULES[product];
    if (rules.direction === 'required' && !present(raw['direction'])) v.missing('direction');
    if (rules.direction === 'refused' && present(raw['direction'])) {
      v.add('direction', `Not supported for product ${product}`);
    }
    if (!rules.message && present(raw['include_message'])) {
      v.add('include_message', 'Only supported for products SMS and MESSAGES');
    }
    if (!rules.message && present(raw['show_concatenated'])) {
      v.add('show_concatenated', 'Only supported for products SMS and MESSAGES');
    }
    if (rules.type && !present(raw['type'])) v.missing('type');
    if (!rules.type && present(raw['type'])) v.add('type', 'Only supported for product CONVERSATIONS');
    if (!rules.status && present(raw['status'])) v.add('status', 'Only supported for product SMS');
  }
  if (!accountId || !product || v.list.length) return undefined;
  return {
    accountId,
    product,
    ...(direction ? { direction } : {}),
    includeMessage: includeMessage ?? false,
    ...(showConcatenated !== undefined ? { showConcatenated } : {}),
    ...(type ? { type } : {}),
    ...(status ? { status } : {}),
  };
}

/** `id`: one transaction id or a comma list of them. */
function readIds(raw: RawParams, v: Violations): string[] | undefined {
  const text = readString(raw, 'id');
  if (text === undefined) return undefined;
  const ids = [...new Set(text.split(',').map((s) => s.trim()))];
  if (ids.some((id) => id === '' || id.length > 64)) {
    v.add('id', 'Must be one id or a comma-separated list of ids');
    return undefined;
  }
  if (ids.length > MAX_IDS) {
    v.add('id', `At most ${MAX_IDS} ids per request`);
    return undefined;
  }
  return ids;
}

/** `date_start` and `date_end`: each needs the other, ISO 8601 with an offset, end after start. */
function readWindow(
  raw: RawParams,
  v: Violations,
  rules: { required: boolean; maxMs?: number },
): { start?: Instant; end?: Instant } {
  const start = readInstant(raw, 'date_start', v);
  const end = readInstant(raw, 'date_end', v);
  const hasStart = present(raw['date_start']);
  const hasEnd = present(raw['date_end']);
  if (hasStart && !hasEnd) v.add('date_end', 'Missing required parameter: date_start requires date_end');
  if (hasEnd && !hasStart) v.add('date_start', 'Missing required parameter: date_end requires date_start');
  if (!hasStart && !hasEnd && rules.required) {
    v.add('date_start', 'Missing required parameter: give date_start and date_end, or id');
    v.add('date_end', 'Missing required parameter: give date_start and date_end, or id');
  }
  if (start && end) {
    if (end.ms <= start.ms) v.add('date_end', 'Must be later than date_start');
    else if (rules.maxMs !== undefined && end.ms - start.ms > rules.maxMs) {
      v.add('date_end', 'Must be no more than 24 hours later than date_start');
    }
  }
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

function readInstant(raw: RawParams, name: string, v: Violations): Instant | undefined {
  const text = readString(raw, name);
  if (text === undefined) return undefined;
  const ms = ISO_WITH_OFFSET.test(text) ? Date.parse(normaliseOffset(text)) : Number.NaN;
  if (Number.isNaN(ms)) {
    v.add(name, 'Must be ISO 8601 with a zone offset or Z: yyyy-mm-ddThh:mm:ss[.sss]±hh:mm');
    return undefined;
  }
  return { text, ms };
}

/** `+0000` as `+00:00`, which every Date parser reads. */
function normaliseOffset(text: string): string {
  return text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

function instant(ms: number): Instant {
  return { text: new Date(ms).toISOString(), ms };
}

/** The opaque `cursor` of a `_links.next` link: where the previous page ended. */
function readCursor(raw: RawParams, v: Violations): UsageCursor | undefined {
  const text = readString(raw, 'cursor');
  if (text === undefined) return undefined;
  const cursor = decodeCursor(text);
  if (!cursor) v.add('cursor', 'Not a cursor of this API; follow _links.next');
  return cursor;
}

/**
 * The cursor of the next page, as `_links.next` carries it.
 *
 * @example
 * encodeCursor({ createdAt: 1700000000000, seq: 42 }) // 'MTcwMDAwMDAwMDAwMC40Mg'
 */
export function encodeCursor(cursor: UsageCursor): string {
  return btoa(`${cursor.createdAt}.${cursor.seq}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function decodeCursor(text: string): UsageCursor | undefined {
  let decoded: string;
  try {
    decoded = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(decoded);
  return m ? { createdAt: Number(m[1]), seq: Number(m[2]) } : undefined;
}

function readCallbackUrl(raw: RawParams, v: Violations): string | undefined {
  const text = readString(raw, 'callback_url');
  if (text === undefined) return undefined;
  if (!httpUrl.safeParse(text).success) {
    v.add('callback_url', 'Must be an http or https URL');
    return undefined;
  }
  return text;
}

function readEnum<T extends string>(
  raw: RawParams,
  name: string,
  values: readonly T[],
  v: Violations,
): T | undefined {
  const text = readString(raw, name);
  if (text === undefined) return undefined;
  if ((values as readonly string[]).includes(text)) return text as T;
  v.add(name, `Must be one of ${values.join(', ')}`);
  return undefined;
}

/** A boolean given as JSON `true`/`false` or the strings `true`/`false`. */
function readBoolean(raw: RawParams, name: string, v: Violations): boolean | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  v.add(name, 'Must be true or false');
  return undefined;
}

function readString(raw: RawParams, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : String(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}
