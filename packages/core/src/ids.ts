/** Identifiers in the shapes the vendor uses, so that clients validating them accept ours. */

const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomString(alphabet: string, length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** A UUID v4 (applications, secrets, calls). */
export function uuid(): string {
  return crypto.randomUUID();
}

/** An 8-character lower-case hex API key, like `abcd1234`. */
export function apiKey(): string {
  return randomString(HEX, 8);
}

/** A 16-character API secret meeting the secret rules (lower, upper, digit). */
export function apiSecret(): string {
  const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const body = randomString(ALNUM, 13);
  return `${randomString(upper, 1)}${body}${randomString('0123456789', 1)}${randomString(upper, 1)}`;
}

/** A 32-character hex id (request ids, verify request ids, trace ids). */
export function hexId(length = 32): string {
  return randomString(HEX, length);
}

/** A 16-character upper-case hex message id, like SMS `message-id`s. */
export function messageId(): string {
  return randomString(HEX, 16).toUpperCase();
}
