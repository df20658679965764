import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sdkSigningString, sign, signingString, verifySignature } from './signature';

const now = 1_700_000_000;
const params = { api_key: 'abcd1234', to: '447700900000', text: 'a=b&c', timestamp: String(now) };

describe('request signatures', () => {
  it('builds the documented string: sorted, &name=value, & and = in values replaced', () => {
    expect(signingString({ ...params, sig: 'ignored' })).toBe(
      `&api_key=abcd1234&text=a_b_c&timestamp=${now}&to=447700900000`,
    );
  });

  it('signs md5hash as md5(string + secret) and the HMACs with the secret as key', () => {
    const text = signingString(params);
    expect(sign(params, 's3cret', 'md5hash')).toBe(createHash('md5').update(`${text}s3cret`).digest('hex'));
    for (const m of ['md5', 'sha1', 'sha256', 'sha512'] as const) {
      expect(sign(params, 's3cret', m)).toBe(createHmac(m, 's3cret').update(text).digest('hex'));
    }
  });

  it('verifies both the documented form and the official Node SDK form', () => {
    const documented = sign(params, 'k', 'sha256');
    expect(verifySignature({ ...params, sig: documented }, 'k', 'sha256', now)).toBe('ok');
    const sdk = createHmac('sha256', 'k').update(sdkSigningString(params)).digest('hex');
    expect(verifySignature({ ...params, sig: sdk.toUpperCase() }, 'k', 'sha256', now)).toBe('ok');
  });

  it('refuses a wrong signature, a wrong secret and a stale timestamp', () => {
    const sig = sign(params, 'k', 'md5hash');
    expect(
      verifySignature(
        { ...params, sig: sig.replace(/.$/, '0') === sig ? `${sig}1` : sig.replace(/.$/, '0') },
        'k',
        'md5hash',
        now,
      ),
    ).toBe('bad-signature');
    expect(verifySignature({ ...params, sig }, 'other', 'md5hash', now)).toBe('bad-signature');
    expect(verifySignature({ ...params, sig }, 'k', 'md5hash', now + 301)).toBe('bad-timestamp');
    expect(verifySignature({ ...params, text: 'changed', sig }, 'k', 'md5hash', now)).toBe('bad-signature');
  });
});
