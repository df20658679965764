import { Hono } from 'hono';
import type { AccountsEnv } from '../middleware';

/** Applications API v2 (being written). */
export const applications = new Hono<AccountsEnv>();
