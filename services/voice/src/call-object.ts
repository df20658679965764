import { formatAmount, type JsonObject, vendorDateTime } from '@comms/core';
import { endpointObject } from './endpoints';
import type { CallState } from './machine';

/**
 * The call object of spec 2.9, as `GET /v1/calls/:uuid` and the list show it. The bill (`rate`,
 * `price`, `duration`, `start_time`, `end_time`, `network`) appears once the call is `completed`.
 *
 * @example
 * callObject(state) // { _links, uuid, conversation_uuid, to, from, status, direction, ... }
 */
export function callObject(state: CallState): JsonObject {
  const { setup } = state;
  const call: JsonObject = {
    _links: { self: { href: `/v1/calls/${setup.uuid}` } },
    uuid: setup.uuid,
    conversation_uuid: setup.conversationUuid,
    to: endpointObject(setup.to),
    from: endpointObject(setup.from),
    status: state.status,
    direction: setup.direction,
  };
  if (state.status === 'completed' && state.answeredAt !== null && state.endedAt !== null) {
    call['rate'] = formatAmount(setup.rate);
    call['price'] = formatAmount(state.price ?? 0);
    call['duration'] = String(state.durationSeconds ?? 0);
    call['start_time'] = vendorDateTime(state.answeredAt);
    call['end_time'] = vendorDateTime(state.endedAt);
    call['network'] = setup.network.code;
  }
  return call;
}
