import { type AccountsRpc, type NumbersRpc, rpc } from '@comms/core';

export const accounts = (env: Env) => rpc<AccountsRpc>(env.ACCOUNTS);
export const numbers = (env: Env) => rpc<NumbersRpc>(env.NUMBERS);

/** The simulated phone with this number. */
export function handsetOf(env: Env, msisdn: string) {
  return env.HANDSET.get(env.HANDSET.idFromName(msisdn));
}

/** The messages an account sent that the network has not finished with. */
export function outboxOf(env: Env, apiKey: string) {
  return env.OUTBOX.get(env.OUTBOX.idFromName(apiKey));
}

/** The one directory of objects that hold state, for a sandbox reset. */
export function directoryOf(env: Env) {
  return env.SMS_DIRECTORY.get(env.SMS_DIRECTORY.idFromName('directory'));
}
