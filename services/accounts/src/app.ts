import { createApp, problemStyle } from '@comms/core';
import { applications } from './routes/applications';
import { balance } from './routes/balance';
import { pricing } from './routes/pricing';
import { secrets } from './routes/secrets';
import { settings } from './routes/settings';

/** The accounts family's HTTP surface: one route file per resource. */
export const app = createApp<Env>({ style: problemStyle() })
  .route('/', balance)
  .route('/', settings)
  .route('/', pricing)
  .route('/', secrets)
  .route('/', applications);
