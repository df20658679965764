import {
  type AccountIdentity,
  type AllowanceKind,
  amountFromNumber,
  type CredentialStore,
  hexId,
  apiKey as newApiKey,
  apiSecret as newApiSecret,
  type SandboxAccount,
  type SandboxAccountInit,
  SIGNATURE_METHODS,
} from '@comms/core';

/** The Durable Object of one account. */
export function accountOf(env: Env, apiKey: string) {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(apiKey));
}

/** The one directory object. */
export function registryOf(env: Env) {
  return env.REGISTRY.get(env.REGISTRY.idFromName('registry'));
}

/** Authentication's view of accounts and applications, answered from this service's own storage. */
export function credentialStore(env: Env): CredentialStore {
  return {
    verifySecret: (apiKey, secret) => accountOf(env, apiKey).verifySecret(secret),
    signatureSettings: (apiKey) => accountOf(env, apiKey).signatureSettings(),
    async applicationKey(applicationId) {
      const owner = await registryOf(env).applicationOwner(applicationId);
      if (!owner) return null;
      const account = accountOf(env, owner);
      const [app, identity] = await Promise.all([account.getApplication(applicationId), account.identity()]);
      if (!app || !identity) return null;
      return { publicKey: app.publicKey, apiKey: identity.apiKey, primaryApiKey: identity.primaryApiKey };
    },
  };
}

/**
 * Whether `actor` may manage `target`'s account resources: its own, or a secondary account's
 * when `actor` is that account's primary.
 */
export function mayManage(actor: AccountIdentity, target: AccountIdentity): boolean {
  return actor.apiKey === target.apiKey || target.primaryApiKey === actor.apiKey;
}

/** Creates an account with fresh credentials (the sandbox control plane's `POST /_sandbox/accounts`). */
export async function createAccount(
  env: Env,
  init: SandboxAccountInit,
): Promise<{ ok: true; account: SandboxAccount } | { ok: false; error: string }> {
  const balance = init.balance ?? 10;
  if (typeof balance !== 'number' || !Number.isFinite(balance) || balance < 0 || balance > 1_000_000) {
    return { ok: false, error: 'balance must be a number of EUR from 0 to 1000000' };
  }
  const method = init.signature_method ?? 'md5hash';
  if (!SIGNATURE_METHODS.includes(method)) {
    return { ok: false, error: `signature_method must be one of ${SIGNATURE_METHODS.join(', ')}` };
  }
  const primary = init.primary_api_key ?? null;
  if (primary !== null) {
    const primaryIdentity = await accountOf(env, primary).identity();
    if (!primaryIdentity) return { ok: false, error: `primary_api_key '${primary}' does not exist` };
    if (primaryIdentity.primaryApiKey)
      return { ok: false, error: 'a secondary account cannot have secondaries' };
  }
  for (const [name, value] of Object.entries(init.settings ?? {})) {
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 10_000) {
      return { ok: false, error: `settings.${name} must be an integer from 1 to 10000` };
    }
  }
  const redactAfter = init.redact_after_seconds;
  if (redactAfter !== undefined && !isIntegerIn(redactAfter, 0, 30 * 86_400)) {
    return { ok: false, error: 'redact_after_seconds must be an integer from 0 to 2592000' };
  }
  for (const [kind, value] of Object.entries(init.rate_limits ?? {})) {
    if (!ALLOWANCE_KINDS.includes(kind as AllowanceKind)) {
      return { ok: false, error: `rate_limits may set ${ALLOWANCE_KINDS.join(', ')}` };
    }
    if (!isIntegerIn(value, 1, 100_000)) {
      return { ok: false, error: `rate_limits.${kind} must be an integer from 1 to 100000` };
    }
  }
  const registry = registryOf(env);
  let apiKey = newApiKey();
  while (!(await registry.registerAccount(apiKey, primary))) apiKey = newApiKey();
  const secret = newApiSecret();
  const signatureSecret = hexId(32);
  await accountOf(env, apiKey).create({
    apiKey,
    secret,
    signatureSecret,
    signatureMethod: method,
    balance: amountFromNumber(balance),
    autoReload: init.auto_reload === true,
    primaryApiKey: primary,
    demoMode: init.demo_mode === true,
    pinCodeAllowed: init.pin_code_allowed === true,
    signWebhooks: init.sign_webhooks === true,
    redactAfterSeconds: redactAfter ?? null,
    rateLimits: init.rate_limits ?? {},
    throughput: init.settings ?? {},
  });
  return {
    ok: true,
    account: {
      api_key: apiKey,
      api_secret: secret,
      signature_secret: signatureSecret,
      signature_method: method,
      ...(primary ? { primary_api_key: primary } : {}),
    },
  };
}

/** Wipes every account and the directory (sandbox reset). */
export async function resetAccounts(env: Env): Promise<void> {
  const keys = await registryOf(env).reset();
  await Promise.all(keys.map((key) => accountOf(env, key).wipe()));
}

const ALLOWANCE_KINDS: readonly AllowanceKind[] = ['reports', 'redact'];

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}
