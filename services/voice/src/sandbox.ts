import type { VoiceRpc } from '@comms/core';
import type { CallInput } from './machine';

/** A sandbox control of the simulated callee as the call leg's input. */
export function calleeInput(control: Parameters<VoiceRpc['control']>[1]): CallInput {
  switch (control.action) {
    case 'dtmf':
      return { kind: 'dtmf', digits: control.digits };
    case 'speech':
      return { kind: 'speech', text: control.text };
    default:
      return { kind: 'callee', action: control.action };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string can name a call or a recording (anything else must not reach a Durable Object). */
export function isUuid(uuid: string): boolean {
  return UUID.test(uuid);
}
