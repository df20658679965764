import { type AccountsRpc, rpc, type SmsRpc } from '@comms/core';

export const accounts = (env: Env) => rpc<AccountsRpc>(env.ACCOUNTS);

/** The simulated phone network's handsets live in the SMS service. */
export const handsets = (env: Env) => rpc<SmsRpc>(env.SMS);

/** The Durable Object of one verify request, named by its request id. */
export function requestOf(env: Env, requestId: string) {
  return env.VERIFY_REQUEST.get(env.VERIFY_REQUEST.idFromName(requestId));
}

/** A number's lock, by its name (`lockName`). */
export function lockOf(env: Env, name: string) {
  return env.NUMBER_LOCK.get(env.NUMBER_LOCK.idFromName(name));
}

/**
 * The name of the lock on one account's verifications to one number. Keyed by account as well as
 * number, so that one developer's request in a shared sandbox never blocks another's.
 */
export function lockName(apiKey: string, msisdn: string): string {
  return `${apiKey}:${msisdn}`;
}

/** The one directory of objects that hold state, for a sandbox reset. */
export function directoryOf(env: Env) {
  return env.VERIFY_DIRECTORY.get(env.VERIFY_DIRECTORY.idFromName('directory'));
}
