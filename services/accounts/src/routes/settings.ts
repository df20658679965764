import { ApiError, authOf, errorStyle, httpUrl, legacyStyle, param, readParams, respond } from '@comms/core';
import { Hono } from 'hono';
import { accountOf } from '../accounts';
import { type AccountsEnv, acceptFormat, auth } from '../middleware';

/** `POST /account/settings` (spec 4.3): default callback URLs and the throughput limits. */
export const settings = new Hono<AccountsEnv>();

const CALLBACK_FIELDS = { moCallBackUrl: 'mo', drCallBackUrl: 'dr' } as const;

/** How long a callback URL has to answer its check. */
const URL_CHECK_TIMEOUT_MS = 5000;

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
      if (value !== '') await checkCallbackUrl(field, value);
      change[key] = value;
    }
    const result = await accountOf(c.env, authOf(c).apiKey).updateSettings(change);
    if (!result) throw new ApiError({ kind: 'unauthorized' });
    return respond(c, result, { root: 'account-settings' });
  },
);

/** A callback URL is saved only when it is a URL that answers 200 to a GET. */
async function checkCallbackUrl(field: string, url: string): Promise<void> {
  if (!httpUrl.safeParse(url).success) {
    throw new ApiError({ kind: 'validation', label: `${field} is not a valid http or https URL` });
  }
  let status: number;
  try {
    const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(URL_CHECK_TIMEOUT_MS) });
    status = res.status;
    await res.body?.cancel();
  } catch {
    throw new ApiError({ kind: 'validation', label: `${field} could not be reached` });
  }
  if (status !== 200) {
    throw new ApiError({
      kind: 'validation',
      label: `${field} answered ${status} to a GET; it must answer 200`,
    });
  }
}
