import { describe, expect, it } from 'vitest';
import { armAlarm } from './alarm';

/** The two calls armAlarm makes, recorded. */
function fakeStorage() {
  const calls: (['set', number] | ['delete'])[] = [];
  const storage = {
    setAlarm: async (at: number) => {
      calls.push(['set', at]);
    },
    deleteAlarm: async () => {
      calls.push(['delete']);
    },
  } as unknown as DurableObjectStorage;
  return { storage, calls };
}

describe('armAlarm', () => {
  it('sets a future time as given', async () => {
    const { storage, calls } = fakeStorage();
    const at = Date.now() + 60_000;
    await armAlarm(storage, at);
    expect(calls).toEqual([['set', at]]);
  });

  it('moves a time at or before now to just after now', async () => {
    const { storage, calls } = fakeStorage();
    const before = Date.now();
    await armAlarm(storage, before - 5000);
    await armAlarm(storage, before);
    for (const call of calls) {
      expect(call[0]).toBe('set');
      expect(call[1]).toBeGreaterThan(before);
    }
  });

  it('clears the alarm when there is no work', async () => {
    const { storage, calls } = fakeStorage();
    await armAlarm(storage, null);
    expect(calls).toEqual([['delete']]);
  });
});
