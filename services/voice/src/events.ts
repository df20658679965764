import { type Amount, formatAmount, type JsonObject } from '@comms/core';
import { type CallEndpoint, endpointAddress } from './endpoints';
import { type RecordingFormat, recordingSize } from './recording-audio';

/** Call statuses (spec 3.2). */
export const CALL_STATUSES = [
  'started',
  'ringing',
  'answered',
  'machine',
  'completed',
  'busy',
  'cancelled',
  'failed',
  'rejected',
  'timeout',
  'unanswered',
] as const;

export type CallStatus = (typeof CALL_STATUSES)[number];

/** Who ended an answered call: the platform (API, timers, end of the NCCO) or the callee. */
export type DisconnectedBy = 'platform' | 'user';

/** The identity every event of a leg carries. */
export interface LegIdentity {
  uuid: string;
  conversationUuid: string;
  from: CallEndpoint;
  to: CallEndpoint;
  direction: 'outbound' | 'inbound';
}

/** Event timestamps: ISO 8601 with milliseconds, as the vendor sends them. */
export function isoTime(at: number): string {
  return new Date(at).toISOString();
}

/** The fields every status event has (vendor's event webhook reference). */
function baseEvent(leg: LegIdentity, status: CallStatus, at: number): JsonObject {
  return {
    from: endpointAddress(leg.from),
    to: endpointAddress(leg.to),
    uuid: leg.uuid,
    conversation_uuid: leg.conversationUuid,
    status,
    direction: leg.direction,
    timestamp: isoTime(at),
  };
}

/** What a completed call adds to its event: the bill. */
export interface CallSummary {
  startedAt: number;
  endedAt: number;
  durationSeconds: number;
  rate: Amount;
  price: Amount;
  network: string;
  disconnectedBy: DisconnectedBy;
}

/**
 * The event of a status change. `answered` carries the empty `start_time`, `rate` and `network` of
 * the reference; `machine` also the older `call_uuid`; `completed` the bill; the statuses of a call
 * that did not connect a `detail` when the network gave one.
 *
 * @example
 * statusEvent(leg, 'ringing', Date.now()) // { from, to, uuid, conversation_uuid, status: 'ringing', direction, timestamp }
 */
export function statusEvent(
  leg: LegIdentity,
  status: CallStatus,
  at: number,
  extra: { detail?: string | null; summary?: CallSummary } = {},
): JsonObject {
  const base = baseEvent(leg, status, at);
  if (status === 'answered') return { ...base, start_time: null, rate: null, network: null };
  if (status === 'machine') return { ...base, call_uuid: leg.uuid };
  if (status === 'completed' && extra.summary) {
    const s = extra.summary;
    return {
      ...base,
      start_time: isoTime(s.startedAt),
      end_time: isoTime(s.endedAt),
      duration: String(s.durationSeconds),
      rate: formatAmount(s.rate),
      price: formatAmount(s.price),
      network: s.network,
      disconnected_by: s.disconnectedBy,
    };
  }
  return extra.detail ? { ...base, detail: extra.detail } : base;
}

/** The error event (reference "Errors"): what went wrong, for the conversation. */
export function errorEvent(leg: LegIdentity, reason: string, at: number): JsonObject {
  return { reason, conversation_uuid: leg.conversationUuid, timestamp: isoTime(at) };
}

/** The transfer event: the leg moved to a new NCCO. */
export function transferEvent(leg: LegIdentity, at: number): JsonObject {
  return {
    conversation_uuid_from: leg.conversationUuid,
    conversation_uuid_to: leg.conversationUuid,
    uuid: leg.uuid,
    timestamp: isoTime(at),
  };
}

/** What an `input` action collected. */
export interface InputResult {
  dtmf?: { digits: string; timed_out: boolean };
  speech?: { results: { text: string; confidence: string }[] } | { timeout_reason: string };
}

/** The input event, sent to the action's `eventUrl` when an `input` finishes. */
export function inputEvent(leg: LegIdentity, result: InputResult, at: number): JsonObject {
  return {
    from: endpointAddress(leg.from),
    to: endpointAddress(leg.to),
    ...(result.dtmf ? { dtmf: result.dtmf } : {}),
    ...(result.speech ? { speech: result.speech as unknown as JsonObject } : {}),
    uuid: leg.uuid,
    conversation_uuid: leg.conversationUuid,
    timestamp: isoTime(at),
  };
}

/**
 * The record event, sent when a recording ends: where to download it and its exact size (the
 * simulated audio is silence of the recording's length, `recording-audio.ts`).
 */
export function recordEvent(
  leg: LegIdentity,
  recording: { uuid: string; startedAt: number; endedAt: number; format: RecordingFormat; channels: number },
  url: string,
): JsonObject {
  return {
    start_time: isoTime(recording.startedAt),
    recording_url: url,
    size: recordingSize(recording.format, recording.endedAt - recording.startedAt, recording.channels),
    recording_uuid: recording.uuid,
    end_time: isoTime(recording.endedAt),
    conversation_uuid: leg.conversationUuid,
    timestamp: isoTime(recording.endedAt),
  };
}
