import { createApp } from '@comms/core';
import { redactStyle } from './errors';
import { transaction } from './routes/transaction';

/** The redact family's HTTP surface. */
export const app = createApp<Env>({ style: redactStyle }).route('/', transaction);
