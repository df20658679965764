import type { Direction, Product } from '@comms/core';

/** The products a report may be asked for (spec 4.12), in the order the vendor lists them. */
export const REPORT_PRODUCTS = [
  'SMS',
  'VOICE-CALL',
  'WEBSOCKET-CALL',
  'VERIFY-API',
  'NUMBER-INSIGHT',
  'MESSAGES',
  'CONVERSATIONS',
  'ASR',
] as const satisfies readonly Product[];

export type ReportProduct = (typeof REPORT_PRODUCTS)[number];

/** Whether a product takes `direction`: required, optional, or refused. */
export type DirectionRule = 'required' | 'optional' | 'refused';

/**
 * The query rules of each product (spec 4.12, reference `get-records`): `direction` required for SMS and
 * MESSAGES, optional for VOICE-CALL and ASR, refused for the rest; `include_message` for SMS and
 * MESSAGES; `status` for SMS; `type` for CONVERSATIONS, where it is required.
 */
export const PRODUCT_RULES: Readonly<
  Record<ReportProduct, { direction: DirectionRule; message: boolean; status: boolean; type: boolean }>
> = {
  SMS: { direction: 'required', message: true, status: true, type: false },
  'VOICE-CALL': { direction: 'optional', message: false, status: false, type: false },
  'WEBSOCKET-CALL': { direction: 'refused', message: false, status: false, type: false },
  'VERIFY-API': { direction: 'refused', message: false, status: false, type: false },
  'NUMBER-INSIGHT': { direction: 'refused', message: false, status: false, type: false },
  MESSAGES: { direction: 'required', message: true, status: false, type: false },
  CONVERSATIONS: { direction: 'refused', message: false, status: false, type: true },
  ASR: { direction: 'optional', message: false, status: false, type: false },
};

/**
 * The fields of a report record, in the reference's order (`json_sms_outbound`, `csv_ni`, ...; the
 * voice, websocket and verify lists of spec 2.14). `message_body` is added after `to` when
 * `include_message` is set.
 */
const FIELDS = {
  'SMS:outbound': [
    'account_id',
    'message_id',
    'client_ref',
    'account_ref',
    'direction',
    'from',
    'to',
    'network',
    'network_name',
    'country',
    'country_name',
    'date_received',
    'date_finalized',
    'latency',
    'status',
    'error_code',
    'error_code_description',
    'currency',
    'total_price',
  ],
  'SMS:inbound': [
    'account_id',
    'message_id',
    'direction',
    'from',
    'to',
    'network',
    'network_name',
    'country',
    'country_name',
    'date_received',
    'currency',
    'total_price',
  ],
  'VOICE-CALL': [
    'account_id',
    'call_id',
    'direction',
    'from',
    'to',
    'network',
    'network_name',
    'country',
    'country_name',
    'date_start',
    'date_end',
    'duration',
    'status',
    'status_description',
    'currency',
    'price',
    'total_price',
  ],
  'WEBSOCKET-CALL': [
    'account_id',
    'call_id',
    'date_start',
    'date_end',
    'duration',
    'status',
    'currency',
    'price',
    'total_price',
  ],
  'VERIFY-API': [
    'account_id',
    'request_id',
    'from',
    'to',
    'locale',
    'number_type',
    'network',
    'network_name',
    'country',
    'country_name',
    'date_received',
    'date_finalized',
    'first_event_date',
    'last_event_date',
    'verify_status',
    'sms_event_count',
    'tts_event_count',
    'currency',
    'pricing_model',
    'price',
    'estimated_price',
  ],
  'NUMBER-INSIGHT': [
    'account_id',
    'request_id',
    'product_type',
    'number',
    'date_received',
    'status',
    'response_code',
    'network',
    'network_name',
    'network_type',
    'country',
    'country_name',
    'valid',
    'ported',
    'reachable',
    'first_name',
    'last_name',
    'currency',
    'total_price',
  ],
  'MESSAGES:outbound': [
    'account_id',
    'message_id',
    'client_ref',
    'direction',
    'from',
    'to',
    'country',
    'country_name',
    'provider',
    'date_received',
    'date_finalized',
    'latency',
    'status',
    'error_code',
    'currency',
    'total_price',
  ],
  'MESSAGES:inbound': [
    'account_id',
    'message_id',
    'direction',
    'from',
    'to',
    'provider',
    'date_received',
    'currency',
    'total_price',
  ],
  CONVERSATIONS: [
    'account_id',
    'request_id',
    'application_id',
    'conversation_id',
    'user_id',
    'leg_id',
    'date_start',
    'date_end',
    'duration',
    'status',
    'currency',
    'price',
    'total_price',
  ],
  ASR: [
    'account_id',
    'call_id',
    'direction',
    'from',
    'to',
    'call_date_start',
    'date_start',
    'date_end',
    'duration',
    'status',
    'status_description',
    'currency',
    'price',
    'total_price',
  ],
} as const satisfies Record<string, readonly string[]>;

/**
 * The record fields of a product (and direction, where the two directions differ).
 *
 * @example
 * recordFields('SMS', 'inbound', true) // ['account_id', 'message_id', 'direction', 'from', 'to', 'message_body', ...]
 */
export function recordFields(
  product: ReportProduct,
  direction: Direction | undefined,
  includeMessage: boolean,
): readonly string[] {
  const key = product === 'SMS' || product === 'MESSAGES' ? `${product}:${direction ?? 'outbound'}` : product;
  const fields: readonly string[] = FIELDS[key as keyof typeof FIELDS];
  if (!includeMessage) return fields;
  const at = fields.indexOf('to') + 1;
  return [...fields.slice(0, at), 'message_body', ...fields.slice(at)];
}

/** The field naming the transaction in each product's records. */
export function idField(product: ReportProduct): string {
  switch (product) {
    case 'SMS':
    case 'MESSAGES':
      return 'message_id';
    case 'VOICE-CALL':
    case 'WEBSOCKET-CALL':
    case 'ASR':
      return 'call_id';
    default:
      return 'request_id';
  }
}
