import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Params } from './params';

/** How an account signs requests and webhooks (spec section 5.3). */
export type SignatureMethod = 'md5hash' | 'md5' | 'sha1' | 'sha256' | 'sha512';

export const SIGNATURE_METHODS: readonly SignatureMethod[] = ['md5hash', 'md5', 'sha1', 'sha256', 'sha512'];

function entries(params: Record<string, string | string[] | undefined>): [string, string][] {
  return Object.keys(params)
    .filter((k) => k !== 'sig' && params[k] !== undefined)
    .sort()
    .map((k) => {
      const raw = params[k];
      return [k, Array.isArray(raw) ? (raw[0] ?? '') : (raw as string)];
    });
}

/**
 * The string that is signed, in the documented form: every parameter but `sig`, sorted by name,
 * as `&name=value`, with `&` and `=` inside values replaced by `_`.
 */
export function signingString(params: Record<string, string | string[] | undefined>): string {
  return entries(params)
    .map(([k, v]) => `&${k}=${v.replace(/[&=]/g, '_')}`)
    .join('');
}

/**
 * The form the official Node SDK signs: the sorted parameters URL-encoded as a query string, with
 * every `&` and `=` (separators included) replaced by `_`. Accepted too, so that SDK-signed
 * requests verify.
 */
export function sdkSigningString(params: Record<string, string | string[] | undefined>): string {
  return new URLSearchParams(entries(params)).toString().replace(/[&=]/g, '_');
}

function digest(text: string, secret: string, method: SignatureMethod): string {
  if (method === 'md5hash')
    return createHash('md5')
      .update(text + secret, 'utf8')
      .digest('hex');
  return createHmac(method, secret).update(text, 'utf8').digest('hex');
}

/**
 * Signs parameters with the account's signature secret (documented form); used for webhooks.
 *
 * @example
 * sign({ api_key: 'abcd1234', timestamp: '1700000000', to: '447700900000' }, secret, 'sha256')
 */
export function sign(
  params: Record<string, string | string[] | undefined>,
  secret: string,
  method: SignatureMethod,
) {
  return digest(signingString(params), secret, method);
}

/** Constant-time comparison of two hex signatures, ignoring case. */
export function signaturesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  if (x.length !== y.length) {
    // Compare anyway so that a wrong length costs the same time as a wrong value.
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** Default tolerance between a signed request's `timestamp` and the server's clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureCheck = 'ok' | 'bad-timestamp' | 'bad-signature';

/** Verifies a signed request's `sig` and `timestamp` against the account's secret and method. */
export function verifySignature(
  params: Params,
  secret: string,
  method: SignatureMethod,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  const sig = first(params['sig']);
  const timestamp = Number(first(params['timestamp']));
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return 'bad-timestamp';
  if (!sig) return 'bad-signature';
  // Evaluate both forms every time so that timing does not reveal which one matched.
  const documented = signaturesEqual(digest(signingString(params), secret, method), sig);
  const sdk = signaturesEqual(digest(sdkSigningString(params), secret, method), sig);
  return documented || sdk ? 'ok' : 'bad-signature';
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
