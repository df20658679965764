import { type AccountsRpc, type NumbersRpc, rpc, type SmsRpc } from '@comms/core';

export const accounts = (env: Env) => rpc<AccountsRpc>(env.ACCOUNTS);
export const numbers = (env: Env) => rpc<NumbersRpc>(env.NUMBERS);
export const sms = (env: Env) => rpc<SmsRpc>(env.SMS);

/** One call leg (named by its uuid): its state machine, schedule and event outbox. */
export function legOf(env: Env, uuid: string) {
  return env.CALL_LEG.get(env.CALL_LEG.idFromName(uuid));
}

/** An account's calls, for `GET /v1/calls`, and its call-creation rate. */
export function indexOf(env: Env, apiKey: string) {
  return env.CALL_INDEX.get(env.CALL_INDEX.idFromName(apiKey));
}

/** A named conversation of an account (NCCO `conversation`), by `<api_key>/<name>`. */
export function conferenceOf(env: Env, key: string) {
  return env.CONFERENCE.get(env.CONFERENCE.idFromName(key));
}

/** The key of an account's named conversation. */
export function conferenceKey(apiKey: string, name: string): string {
  return `${apiKey}/${name}`;
}

/** The one directory of objects that hold state, for a sandbox reset. */
export function directoryOf(env: Env) {
  return env.VOICE_DIRECTORY.get(env.VOICE_DIRECTORY.idFromName('directory'));
}
