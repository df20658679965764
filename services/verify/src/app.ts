import { createApp } from '@comms/core';
import { check } from './routes/check';
import { control } from './routes/control';
import { request } from './routes/request';
import { search } from './routes/search';
import { verifyStyle } from './status';

/** The verify family's HTTP surface. */
export const app = createApp<Env>({ style: verifyStyle('request') })
  .route('/', check)
  .route('/', search)
  .route('/', control)
  .route('/', request);
