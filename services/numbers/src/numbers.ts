import { type AccountsRpc, type OwnedNumber, rpc } from '@comms/core';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export function accounts(env: Env): AccountsRpc {
  return rpc<AccountsRpc>(env.ACCOUNTS);
}

/** The number pool of a country. */
export function poolOf(env: Env, country: string) {
  return env.POOL.get(env.POOL.idFromName(country));
}

/** The numbers an account rents. */
export function holdingsOf(env: Env, apiKey: string) {
  return env.HOLDINGS.get(env.HOLDINGS.idFromName(apiKey));
}

/** Records that an object now holds state, so that a sandbox reset reaches it. */
export function noteState(env: Env, kind: 'pool' | 'holdings', name: string): Promise<void> {
  return directoryOf(env).note(kind, name);
}

export function directoryOf(env: Env) {
  return env.DIRECTORY.get(env.DIRECTORY.idFromName('directory'));
}

/** The country (alpha-2) an E.164 number belongs to, by its numbering plan. */
export function countryOfMsisdn(msisdn: string): string | undefined {
  if (!/^\d{7,15}$/.test(msisdn)) return undefined;
  return parsePhoneNumberFromString(`+${msisdn}`)?.country;
}

/** Who rents a number and its callbacks: the country's pool knows the owner, the owner's holdings the rest. */
export async function ownerOf(env: Env, msisdn: string): Promise<OwnedNumber | null> {
  const country = countryOfMsisdn(msisdn);
  if (!country) return null;
  const owner = await poolOf(env, country).ownerOf(msisdn);
  if (!owner) return null;
  const holding = await holdingsOf(env, owner).get(owner, msisdn);
  if (!holding) return null;
  const { moSmppSysType: _s, messagesCallbackType: _t, messagesCallbackValue: _v, ...owned } = holding;
  return owned;
}

/** Wipes every pool and every account's holdings. */
export async function resetNumbers(env: Env): Promise<void> {
  const objects = await directoryOf(env).reset();
  await Promise.all(
    objects.map((o) =>
      o.kind === 'pool'
        ? env.POOL.get(env.POOL.idFromName(o.name)).wipe()
        : env.HOLDINGS.get(env.HOLDINGS.idFromName(o.name)).wipe(),
    ),
  );
}
