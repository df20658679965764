import { WorkerEntrypoint } from 'cloudflare:workers';
import { app } from './app';

export { StateDirectory as ReportsDirectory } from '@comms/core/durable';
export { ReportBook } from './durable/report-book';

/** The reports worker: the synchronous and asynchronous reports over HTTP, and its sandbox reset. */
export default class ReportsService extends WorkerEntrypoint<Env> {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  /** Wipes every report book that was ever written to. */
  async reset(): Promise<void> {
    const books = await this.env.REPORTS_DIRECTORY.get(
      this.env.REPORTS_DIRECTORY.idFromName('directory'),
    ).reset();
    await Promise.all(
      books.map((b) => this.env.REPORT_BOOK.get(this.env.REPORT_BOOK.idFromName(b.name)).wipe()),
    );
  }
}
