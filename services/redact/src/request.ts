import { invalidJson, invalidProduct } from './errors';
import { REDACT_PRODUCTS, type RedactProduct } from './products';

/** A redact request (spec 2.15). */
export interface RedactRequest {
  id: string;
  product: RedactProduct;
  /** Which SMS: required for SMS, ignored otherwise. */
  type?: 'inbound' | 'outbound';
}

/**
 * Reads the body of `POST /v1/redact/transaction`: 422 `invalid-json` for a body that is not a JSON
 * object with a string `id` and `product` (and, for SMS, `type`), 422 `invalid-product` for a product
 * that is not one of spec 2.15.
 *
 * @example
 * readRedactRequest('{"id":"0A0000001234ABCD","product":"sms","type":"outbound"}')
 */
export function readRedactRequest(text: string): RedactRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw invalidJson(err instanceof Error ? err.message : 'The body is not JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw invalidJson('The body must be a JSON object');
  const { id, product, type } = body as Record<string, unknown>;
  const missing = [
    ...(typeof id === 'string' && id.trim() !== '' && id.length <= 200
      ? []
      : [{ name: 'id', reason: 'Required: the transaction id, a string' }]),
    ...(typeof product === 'string' ? [] : [{ name: 'product', reason: 'Required: the product, a string' }]),
  ];
  if (missing.length)
    throw invalidJson(`Invalid or missing: ${missing.map((m) => m.name).join(', ')}`, missing);
  const known = productNamed(product as string);
  if (!known) throw invalidProduct(product as string);
  const isSms = known === 'sms';
  if (isSms && type === undefined) {
    throw invalidJson("'type' is required when redacting SMS data", [
      { name: 'type', reason: 'Required for product sms: inbound or outbound' },
    ]);
  }
  const direction = typeof type === 'string' ? type.toLowerCase() : type;
  if (direction !== undefined && direction !== 'inbound' && direction !== 'outbound') {
    throw invalidJson("'type' must be inbound or outbound", [
      { name: 'type', reason: 'inbound or outbound' },
    ]);
  }
  return {
    id: id as string,
    product: known,
    ...(isSms ? { type: direction as 'inbound' | 'outbound' } : {}),
  };
}

/**
 * The product a name means. Besides the reference's `number-insight`, the official Node SDK's enums
 * send `SMS`, `Voice`, `NumberInsight`, `VerifySDK` (and `Inbound`/`Outbound` for the type), so names
 * compare without case, hyphens or underscores.
 *
 * @example
 * productNamed('NumberInsight') // 'number-insight'
 */
export function productNamed(name: string): RedactProduct | undefined {
  const key = name.toLowerCase().replace(/[-_]/g, '');
  return (Object.keys(REDACT_PRODUCTS) as RedactProduct[]).find((p) => p.replace(/-/g, '') === key);
}
