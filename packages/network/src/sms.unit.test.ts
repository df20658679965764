import { describe, expect, it } from 'vitest';
import { lookupNumber } from './directory';
import { smsOutcome } from './sms';

function outcome(number: string, ttl = 259_200_000) {
  const info = lookupNumber(number);
  if (!info.ok) throw new Error('unparsable');
  return smsOutcome(info, ttl);
}

describe('SMS outcomes on the simulated network', () => {
  it('delivers to ordinary phones after a short delay that varies by number', () => {
    const a = outcome('447700900042');
    const b = outcome('447400123456');
    expect(a).toMatchObject({ kind: 'accepted', status: 'delivered', errCode: 0 });
    expect(b).toMatchObject({ kind: 'accepted', status: 'delivered', errCode: 0 });
    for (const o of [a, b]) {
      if (o.kind !== 'accepted') throw new Error();
      expect(o.delayMs).toBeGreaterThanOrEqual(500);
      expect(o.delayMs).toBeLessThanOrEqual(2500);
    }
    expect(outcome('447400123456')).toEqual(b);
  });

  it('follows the magic suffixes in every block', () => {
    expect(outcome('447700900200')).toMatchObject({ status: 'delivered', delayMs: 30_000 });
    expect(outcome('12015550201')).toMatchObject({ status: 'failed', errCode: 8 });
    expect(outcome('447700900202', 25_000)).toMatchObject({ status: 'expired', errCode: 2, delayMs: 20_000 });
    expect(outcome('491700000203')).toMatchObject({ status: 'rejected', errCode: 6 });
    expect(outcome('447700900204')).toEqual({ kind: 'refused', status: 33 });
    expect(outcome('447700900103')).toEqual({ kind: 'refused', status: 7 });
    expect(outcome('447700900102')).toMatchObject({ status: 'expired' });
    expect(outcome('447700900104')).toMatchObject({ status: 'failed', errCode: 12 });
  });
});
