import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

/** A storage whose commits the test releases by hand, recording what each batch ran. */
function fakeStorage() {
  const batches: number[][] = [[]];
  let release: () => void = () => {};
  const storage = {
    transactionSync: <T>(fn: () => T): T => fn(),
    sync: () =>
      new Promise<void>((resolve) => {
        release = () => {
          batches.push([]);
          resolve();
        };
      }),
  } as unknown as DurableObjectStorage;
  return { storage, batches, commit: () => release() };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('GroupCommit', () => {
  it('runs calls that arrive together in one batch, each with its own answer', async () => {
    const { storage, batches, commit } = fakeStorage();
    const group = new GroupCommit(storage, (n: number) => {
      batches.at(-1)!.push(n);
      return n * 2;
    });
    const answers = Promise.all([group.run(1), group.run(2), group.run(3)]);
    await tick();
    expect(batches).toEqual([[1, 2, 3]]);
    commit();
    expect(await answers).toEqual([2, 4, 6]);
  });

  it('gathers calls made while a commit is under way into the next batch', async () => {
    const { storage, batches, commit } = fakeStorage();
    const group = new GroupCommit(storage, (n: number) => batches.at(-1)!.push(n));
    const first = group.run(1);
    await tick();
    const later = [group.run(2), group.run(3)];
    await tick();
    expect(batches).toEqual([[1]]);
    commit();
    await tick();
    expect(batches).toEqual([[1], [2, 3]]);
    commit();
    await Promise.all([first, ...later]);
  });

  it('fails a call that throws alone', async () => {
    const { storage, commit } = fakeStorage();
    const group = new GroupCommit(storage, (n: number) => {
      if (n === 2) throw new RangeError('bad');
      return n;
    });
    const results = Promise.allSettled([group.run(1), group.run(2), group.run(3)]);
    await tick();
    commit();
    const settled = await results;
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
