import { createApp } from '@comms/core';
import { asyncLookup } from './routes/async';
import { lookup } from './routes/lookup';

/**
 * The Number Insight family's HTTP surface. Each route sets the family's status style; a path that
 * is none of them (or an unknown `:format`) gets the platform's 404 problem body.
 */
export const app = createApp<Env>().route('/', asyncLookup).route('/', lookup);
