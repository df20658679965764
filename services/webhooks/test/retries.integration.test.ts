import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { WebhookDelivery } from '@comms/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffMs } from '../src/durable/delivery-log';
import {
  accountKey,
  consume,
  deadLetters,
  deliveries,
  eventually,
  job,
  logStub,
  onlyDelivery,
  receiver,
  worker,
} from './helpers';

/**
 * Time is mocked (Date only; the worker and its Durable Objects share the tests' isolate) and starts
 * an hour ahead of the real clock, so that no alarm armed here fires on its own during a test: the
 * tests fire them with runDurableObjectAlarm once the mocked clock has reached them.
 */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3600_000 });
});

afterEach(async () => {
  // Wipe the logs, so that no retry armed here fires during a later test.
  await worker.reset();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Moves the mocked clock to `at` and fires the log's alarm, which must be armed. */
async function fireAlarmAt(key: string, at: number) {
  vi.setSystemTime(at);
  expect(await runDurableObjectAlarm(logStub(key))).toBe(true);
}

/** Waits until the log has recorded `count` attempts (re-enqueued jobs travel the real queue). */
async function attemptsRecorded(key: string, count: number): Promise<WebhookDelivery> {
  await eventually(
    () => deliveries(key),
    (all) => (all[0]?.attempts.length ?? 0) >= count,
  );
  return onlyDelivery(key);
}

describe('retries', () => {
  it('backs off 5, 10, 20, 40, 80 s through the queue and delivers on the sixth attempt', async () => {
    const received = receiver([500, 500, 503, 500, 404, 200]);
    const key = accountKey('plain');
    await consume(job({ accountKey: key }));
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const delivery = await attemptsRecorded(key, attempt);
      expect(delivery.state).toBe('pending');
      const next = Date.parse(delivery.next_attempt_at!);
      waits.push((next - Date.parse(delivery.attempts.at(-1)!.at)) / 1000);
      // Not yet due: the alarm only re-arms.
      await fireAlarmAt(key, next - 1);
      expect(received).toHaveLength(attempt);
      await fireAlarmAt(key, next);
    }
    expect(waits).toEqual([5, 10, 20, 40, 80]);
    const delivered = await attemptsRecorded(key, 6);
    expect(delivered.state).toBe('delivered');
    expect(delivered.next_attempt_at).toBeNull();
    expect(delivered.attempts.map((a) => a.status)).toEqual([500, 500, 503, 500, 404, 200]);
    for (const a of delivered.attempts) {
      expect(a.error).toBeNull();
      expect(a.latency_ms).toBeGreaterThanOrEqual(0);
    }
    expect(received).toHaveLength(6);
    // Nothing left to do.
    expect(await runDurableObjectAlarm(logStub(key))).toBe(false);
  });

  it('caps the wait at 15 minutes', () => {
    expect(Array.from({ length: 10 }, (_, i) => backoffMs(i + 1) / 1000)).toEqual([
      5, 10, 20, 40, 80, 160, 320, 640, 900, 900,
    ]);
    expect(backoffMs(500)).toBe(900_000);
  });

  it('fails a job whose next attempt would fall after its deadline, and dead-letters it', async () => {
    const received = receiver([500]);
    const key = accountKey('plain');
    const doomed = { ...job({ accountKey: key }), deadline: Date.now() + 30_000 };
    await consume(doomed);
    // Attempts at +0 and +5 s; the third at +15 s would be followed by one at +35 s, past +30 s.
    for (let attempt = 1; attempt <= 2; attempt++) {
      const delivery = await attemptsRecorded(key, attempt);
      await fireAlarmAt(key, Date.parse(delivery.next_attempt_at!));
    }
    const failed = await attemptsRecorded(key, 3);
    expect(failed.state).toBe('failed');
    expect(failed.next_attempt_at).toBeNull();
    expect(received).toHaveLength(3);
    expect((await deadLetters()).some((j) => j.id === doomed.id)).toBe(false);
    // The alarm sends it to the dead-letter queue, with its attempt count.
    expect(await runDurableObjectAlarm(logStub(key))).toBe(true);
    const dead = await eventually(deadLetters, (jobs) => jobs.some((j) => j.id === doomed.id));
    expect(dead.find((j) => j.id === doomed.id)).toMatchObject({ attempt: 3, accountKey: key });
    expect(await runDurableObjectAlarm(logStub(key))).toBe(false);
  });

  it('makes no attempt at a job that arrives past its deadline', async () => {
    const received = receiver();
    const key = accountKey('plain');
    const late = job({ accountKey: key, now: Date.now() - 73 * 3600_000 });
    await consume(late);
    expect(received).toHaveLength(0);
    expect(await onlyDelivery(key)).toMatchObject({ state: 'failed', attempts: [] });
    expect(await runDurableObjectAlarm(logStub(key))).toBe(true);
    await eventually(deadLetters, (jobs) => jobs.some((j) => j.id === late.id));
  });

  it('enqueues a job again when its attempt never reported back (the worker died)', async () => {
    const received = receiver();
    const key = accountKey('plain');
    const stranded = job({ accountKey: key });
    // The consumer took the lease, then vanished before calling the receiver.
    expect(await logStub(key).begin(stranded)).toEqual({ go: true, attempt: 1 });
    // Meanwhile the same message comes round again: the lease keeps it from a second attempt.
    await consume(stranded);
    expect(received).toHaveLength(0);
    const leased = await onlyDelivery(key);
    expect(Date.parse(leased.next_attempt_at!) - Date.now()).toBe(60_000);
    await fireAlarmAt(key, Date.parse(leased.next_attempt_at!));
    const delivered = await attemptsRecorded(key, 1);
    expect(delivered.state).toBe('delivered');
    expect(received).toHaveLength(1);
  });

  it('ignores a stale copy of a job and a late report of a superseded attempt', async () => {
    const received = receiver([500, 200]);
    const key = accountKey('plain');
    const first = job({ accountKey: key });
    await consume(first);
    await consume(first); // attempt count 0, but one attempt has been made: stale
    expect(received).toHaveLength(1);
    const late = { at: Date.now(), status: 200, error: null, latencyMs: 1, payload: {}, headers: {} };
    expect(await logStub(key).finish(first.id, 1, late)).toBeNull();
    expect((await onlyDelivery(key)).state).toBe('pending');
  });
});

describe('the delivery log', () => {
  it('lists deliveries newest first, filtered by kind and limited', async () => {
    receiver();
    const key = accountKey('plain');
    await consume(job({ accountKey: key, kind: 'sms-receipt', body: { n: '1' } }));
    vi.setSystemTime(Date.now() + 1000);
    await consume(job({ accountKey: key, kind: 'sms-inbound', body: { n: '2' } }));
    vi.setSystemTime(Date.now() + 1000);
    await consume(job({ accountKey: key, kind: 'sms-receipt', body: { n: '3' } }));
    expect((await deliveries(key)).map((d) => d.payload['n'])).toEqual(['3', '2', '1']);
    expect((await worker.deliveries(key, { kind: 'sms-receipt' })).map((d) => d.payload['n'])).toEqual([
      '3',
      '1',
    ]);
    expect((await deliveries(key, { limit: 1 })).map((d) => d.payload['n'])).toEqual(['3']);
    expect(await deliveries(accountKey('plain'))).toEqual([]);
  });

  it('reset wipes every log and its schedule', async () => {
    receiver([500]);
    const keys = [accountKey('plain'), accountKey('signed')];
    for (const key of keys) await consume(job({ accountKey: key }));
    for (const key of keys) expect((await onlyDelivery(key)).state).toBe('pending');
    await worker.reset();
    for (const key of keys) {
      expect(await deliveries(key)).toEqual([]);
      expect(await runDurableObjectAlarm(logStub(key))).toBe(false);
    }
    // A retry that was already on the queue is dropped: the reset forgot its job.
    const received = receiver();
    await consume({ ...job({ accountKey: keys[0]! }), attempt: 1 });
    expect(received).toHaveLength(0);
    expect(await deliveries(keys[0]!)).toEqual([]);
    // The logs still work, and a later reset reaches them again.
    await consume(job({ accountKey: keys[0]! }));
    expect(await deliveries(keys[0]!)).toHaveLength(1);
    await worker.reset();
    expect(await deliveries(keys[0]!)).toEqual([]);
  });
});

describe('the real queue', () => {
  it('delivers a job a producer sends to the webhooks queue', async () => {
    const received = receiver();
    const key = accountKey('signed', 'sha256');
    await env.WEBHOOKS_QUEUE.send(job({ accountKey: key, signing: 'legacy', encoding: 'form' }));
    expect((await attemptsRecorded(key, 1)).state).toBe('delivered');
    expect(received).toHaveLength(1);
    expect(new URLSearchParams(received[0]!.body).has('sig')).toBe(true);
  });
});
