/**
 * Group commit for a Durable Object's hot writes. Calls that arrive while one is waiting are run
 * together a moment later, in one event, so their writes share one storage commit instead of one
 * each; each call still runs in its own nested transaction, so one that throws leaves no trace and
 * fails alone. Answers reach callers only once the writes are durable (the object's output gate).
 *
 * @example
 * private readonly charges = new GroupCommit(this.ctx.storage, (r: ChargeRequest) => this.chargeNow(r));
 * charge(request: ChargeRequest) { return this.charges.run(request); }
 */
export class GroupCommit<In, Out> {
  private pending: { input: In; resolve: (out: Out) => void; reject: (err: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly work: (input: In) => Out,
  ) {}

  run(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setTimeout(() => void this.flush(), 0);
      }
    });
  }

  /**
   * Runs what is waiting, then waits for its commit before the next batch: calls that arrive while a
   * commit is under way gather into the next one, so the busier the object, the larger the batches.
   */
  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        for (const call of batch) {
          try {
            call.resolve(this.storage.transactionSync(() => this.work(call.input)));
          } catch (err) {
            call.reject(err);
          }
        }
        await this.storage.sync();
      }
    } finally {
      this.flushing = false;
      if (this.pending.length > 0) {
        this.flushing = true;
        setTimeout(() => void this.flush(), 0);
      }
    }
  }
}
