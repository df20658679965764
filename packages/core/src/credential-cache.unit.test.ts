import { describe, expect, it } from 'vitest';
import type { CredentialStore } from './auth';
import { cachedCredentials } from './credential-cache';

function countingStore(valid: Set<string>) {
  let calls = 0;
  const store: CredentialStore = {
    verifySecret: async (k, s) => {
      calls++;
      return valid.has(`${k}:${s}`) ? { apiKey: k, primaryApiKey: null } : null;
    },
    signatureSettings: async () => null,
    applicationKey: async () => null,
  };
  return { store, calls: () => calls };
}

describe('cachedCredentials', () => {
  it('asks once within the time to live and again after it', async () => {
    const valid = new Set(['k1:S3cretAA']);
    const { store, calls } = countingStore(valid);
    const cached = cachedCredentials(store, 50);
    expect(await cached.verifySecret('k1', 'S3cretAA')).toEqual({ apiKey: 'k1', primaryApiKey: null });
    expect(await cached.verifySecret('k1', 'S3cretAA')).not.toBeNull();
    expect(calls()).toBe(1);
    valid.clear();
    await new Promise((r) => setTimeout(r, 60));
    expect(await cached.verifySecret('k1', 'S3cretAA')).toBeNull();
    expect(calls()).toBe(2);
  });

  it('never caches a refusal and keeps pairs apart', async () => {
    const { store, calls } = countingStore(new Set(['k2:Right123']));
    const cached = cachedCredentials(store);
    expect(await cached.verifySecret('k2', 'Wrong123')).toBeNull();
    expect(await cached.verifySecret('k2', 'Wrong123')).toBeNull();
    expect(await cached.verifySecret('k2', 'Right123')).not.toBeNull();
    expect(calls()).toBe(3);
  });
});
