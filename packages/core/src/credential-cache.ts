import type { AccountIdentity, CredentialStore } from './auth';

/** How long a verified key and secret are trusted without asking the accounts service again. */
export const CREDENTIAL_CACHE_MS = 5000;

const verified = new Map<string, { identity: AccountIdentity; until: number }>();

const ENCODER = new TextEncoder();

async function fingerprint(apiKey: string, secret: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', ENCODER.encode(`${apiKey}\u0000${secret}`)),
  );
  let key = '';
  for (const byte of digest) key += String.fromCharCode(byte);
  return key;
}

/**
 * Wraps a family's credential store so that a key and secret verified in the last few seconds
 * are not verified again: on the hot path (SMS, insight) it saves a round trip to the accounts
 * service per request. Only successes are kept, by a hash of the pair, never the secret; a
 * deleted or rotated secret stops working here within `CREDENTIAL_CACHE_MS`.
 *
 * @example
 * authenticate({ modes: ['key-secret'], store: (c) => cachedCredentials(accounts(c.env)) })
 */
export function cachedCredentials(store: CredentialStore, ttlMs = CREDENTIAL_CACHE_MS): CredentialStore {
  return {
    async verifySecret(apiKey, secret) {
      const key = await fingerprint(apiKey, secret);
      const hit = verified.get(key);
      const now = Date.now();
      if (hit && hit.until > now) return hit.identity;
      const identity = await store.verifySecret(apiKey, secret);
      if (identity) {
        if (verified.size > 10_000) verified.clear();
        verified.set(key, { identity, until: now + ttlMs });
      } else {
        verified.delete(key);
      }
      return identity;
    },
    signatureSettings: (apiKey) => store.signatureSettings(apiKey),
    applicationKey: (id) => store.applicationKey(id),
  };
}
