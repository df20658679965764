import type { VoiceRpc } from '@comms/core';
import { accounts, legOf, numbers } from './objects';
import { inboundSetup } from './setup';

type InboundResult = Awaited<ReturnType<VoiceRpc['inboundCall']>>;

/** An inbound leg may last as long as an outbound one (spec 8); it is answered at once, so it never rings long. */
const INBOUND_LENGTH_S = 7200;
const INBOUND_RINGING_S = 60;

/**
 * A simulated phone calls a number: the number must be rented and linked to an application with
 * voice webhooks. The leg is placed like an outbound one, answered by the platform, and runs the NCCO
 * of the application's `answer_url` (GET or POST as the application says), with events to its
 * `event_url`.
 *
 * @example
 * await placeInboundCall(env, { from: '447700900001', to: rentedNumber }, 'http://127.0.0.1:8787')
 */
export async function placeInboundCall(
  env: Env,
  call: { from: string; to: string },
  baseUrl: string,
): Promise<InboundResult> {
  const owned = await numbers(env).owner(call.to);
  if (!owned) return { ok: false, reason: 'not-rented', detail: `Nobody rents ${call.to}` };
  const hooks = owned.appId ? await accounts(env).applicationVoiceWebhooks(owned.appId) : null;
  if (!hooks?.answer_url || !hooks.event_url || !owned.features.includes('VOICE')) {
    return {
      ok: false,
      reason: 'not-linked',
      detail: `${call.to} is not linked to an application with voice answer_url and event_url`,
    };
  }
  const uuid = crypto.randomUUID();
  const conversationUuid = `CON-${crypto.randomUUID()}`;
  await legOf(env, uuid).start(
    inboundSetup({
      uuid,
      conversationUuid,
      apiKey: owned.apiKey,
      applicationId: owned.appId,
      from: { type: 'phone', number: call.from },
      to: { type: 'phone', number: call.to },
      // Events are POSTed and the answer URL asked with GET unless the application says otherwise.
      event: { url: hooks.event_url.address, method: hooks.event_url.http_method === 'GET' ? 'GET' : 'POST' },
      answer: {
        url: hooks.answer_url.address,
        method: hooks.answer_url.http_method === 'POST' ? 'POST' : 'GET',
      },
      ncco: null,
      lengthTimerSeconds: INBOUND_LENGTH_S,
      ringingTimerSeconds: INBOUND_RINGING_S,
      baseUrl,
    }),
  );
  return { ok: true, uuid, conversation_uuid: conversationUuid, answer_url: hooks.answer_url.address };
}
