import { WorkerEntrypoint } from 'cloudflare:workers';
import type { NumbersRpc, OwnedNumber } from '@comms/core';
import { app } from './app';
import { holdingsOf, ownerOf, resetNumbers } from './numbers';

export { StateDirectory as Directory } from '@comms/core/durable';
export { Holdings } from './durable/holdings';
export { NumberPool } from './durable/pool';

/** The numbers worker: its HTTP routes, and number ownership as RPC for its siblings. */
export default class NumbersService extends WorkerEntrypoint<Env> implements NumbersRpc {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  owner(msisdn: string): Promise<OwnedNumber | null> {
    return ownerOf(this.env, msisdn);
  }

  async numbersOfApplication(apiKey: string, applicationId: string): Promise<OwnedNumber[]> {
    const { numbers } = await holdingsOf(this.env, apiKey).list(apiKey, {
      applicationId,
      searchPattern: 0,
      offset: 0,
      limit: 100,
    });
    return numbers.map(
      ({ moSmppSysType: _s, messagesCallbackType: _t, messagesCallbackValue: _v, ...n }) => n,
    );
  }

  reset(): Promise<void> {
    return resetNumbers(this.env);
  }
}
