import { createApp, legacyStyle } from '@comms/core';
import { owned } from './routes/owned';
import { purchase } from './routes/purchase';
import { search } from './routes/search';
import { update } from './routes/update';

/** The numbers family's HTTP surface: one route file per resource. */
export const app = createApp<Env>({ style: legacyStyle() })
  .route('/', owned)
  .route('/', search)
  .route('/', purchase)
  .route('/', update);
