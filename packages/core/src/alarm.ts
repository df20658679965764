/**
 * Points a Durable Object's one alarm at the earliest time it has work, or clears it when it has
 * none. The alarm is never set at or before now: one set inside the alarm handler to the very time
 * the running alarm fired at counts as unchanged and is dropped when the handler returns, and work
 * already due is as well served a millisecond later. Answers the time set (null: cleared).
 *
 * @example
 * await armAlarm(this.ctx.storage, this.sql.exec('SELECT MIN(due_at) AS t FROM jobs').one().t)
 */
export async function armAlarm(storage: DurableObjectStorage, at: number | null): Promise<number | null> {
  if (at === null) {
    await storage.deleteAlarm();
    return null;
  }
  const time = Math.max(at, Date.now() + 1);
  await storage.setAlarm(time);
  return time;
}
