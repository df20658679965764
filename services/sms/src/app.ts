import { createApp } from '@comms/core';
import { submit } from './routes/submit';
import { smsStyle } from './status';

/** The SMS family's HTTP surface. */
export const app = createApp<Env>({ style: smsStyle }).route('/', submit);
