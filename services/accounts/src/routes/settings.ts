import {
  ApiError,
  acceptFormat,
  authOf,
  errorStyle,
  legacyStyle,
  param,
  readParams,
  respond,
  verifyCallbackUrl,
} from '@comms/core';
import { Hono } from 'hono';
import { accountOf } from '../accounts';
import { type AccountsEnv, auth } from '../middleware';

/** `POST /account/settings` (spec 4.3): default callback URLs and the throughput limits. */
export const settings = new Hono<AccountsEnv>();

const CALLBACK_FIELDS = { moCallBackUrl: 'mo', drCallBackUrl: 'dr' } as const;

settings.post(
  '/account/settings',
  acceptFormat,
  errorStyle(legacyStyle({ root: 'account-settings' })),
  // The vendor takes form fields here, not JSON bodies.
  auth(['key-secret', 'signature'], { jsonParams: false }),
  async (c) => {
    if (/^application\/json/i.test(c.req.header('content-type') ?? '')) {
      throw new ApiError({
        kind: 'unsupported-media-type',
        label: 'JSON request bodies are not accepted here; send application/x-www-form-urlencoded fields',
      });
    }
    const params = await readParams(c, { json: false });
    const change: { mo?: string; dr?: string } = {};
    for (const [field, key] of Object.entries(CALLBACK_FIELDS)) {
      const value = param(params, field);
      if (value === undefined) continue;
      if (value !== '') await verifyCallbackUrl(field, value);
      change[key] = value;
    }
    const result = await accountOf(c.env, authOf(c).apiKey).updateSettings(change);
    if (!result) throw new ApiError({ kind: 'unauthorized' });
    return respond(c, result, { root: 'account-settings' });
  },
);
