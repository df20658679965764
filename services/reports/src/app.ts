import { createApp, problemStyle } from '@comms/core';
import { records } from './routes/records';
import { reports } from './routes/reports';

/** The reports family's HTTP surface; the synchronous records route comes before `/v2/reports/:id`. */
export const app = createApp<Env>({ style: problemStyle() }).route('/', records).route('/', reports);
