import { ApiError, authOf, ERROR_TYPES, errorStyle, problemStyle, validate } from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
import { accountOf, mayManage } from '../accounts';
import type { SecretInfo } from '../durable/account';
import { type AccountsEnv, auth } from '../middleware';

/** `/accounts/:api_key/secrets` (spec 4.3, 2.4), Basic auth, problem bodies. */
export const secrets = new Hono<AccountsEnv>();

// `/*` also matches the bare collection path, so one registration covers every route.
secrets.use('/accounts/:api_key/secrets/*', errorStyle(problemStyle()), auth(['basic']));

const secretRule = z
  .string({ error: 'Is required' })
  .min(8, 'Must be at least 8 characters')
  .max(25, 'Must be at most 25 characters')
  .regex(/[a-z]/, 'Must contain at least one lower-case letter')
  .regex(/[A-Z]/, 'Must contain at least one upper-case letter')
  .regex(/\d/, 'Must contain at least one digit');

/** The account named in the path, if the caller may manage it. */
async function targetAccount(env: Env, actor: ReturnType<typeof authOf>, apiKey: string) {
  const account = accountOf(env, apiKey);
  const identity = await account.identity();
  if (!identity || !mayManage(actor, identity)) {
    // An account the caller may not manage is reported exactly like one that does not exist.
    throw new ApiError({
      kind: 'not-found',
      type: ERROR_TYPES.invalidApiKey,
      title: 'Invalid API Key',
      detail: `API key '${apiKey}' does not exist, or you do not have access`,
    });
  }
  return account;
}

function secretBody(apiKey: string, secret: SecretInfo) {
  return { _links: { self: { href: `/accounts/${apiKey}/secrets/${secret.id}` } }, ...secret };
}

function secretNotFound(id: string): ApiError {
  return new ApiError({
    kind: 'not-found',
    type: ERROR_TYPES.invalidId,
    title: 'Invalid ID',
    detail: `ID '${id}' could not be found`,
  });
}

secrets.get('/accounts/:api_key/secrets', async (c) => {
  const apiKey = c.req.param('api_key');
  const account = await targetAccount(c.env, authOf(c), apiKey);
  const list = await account.listSecrets();
  return c.json({
    _links: { self: { href: `/accounts/${apiKey}/secrets` } },
    _embedded: { secrets: list.map((s) => secretBody(apiKey, s)) },
  });
});

secrets.post(
  '/accounts/:api_key/secrets',
  validate('json', z.object({ secret: secretRule }, { error: 'Must be a JSON object' }), {
    type: ERROR_TYPES.secretValidation,
    detail: 'The request failed due to secret validation errors',
  }),
  async (c) => {
    const apiKey = c.req.param('api_key');
    const account = await targetAccount(c.env, authOf(c), apiKey);
    const result = await account.createSecret(c.req.valid('json').secret);
    if (!result.ok) {
      throw new ApiError({
        kind: 'validation',
        type: ERROR_TYPES.secretValidation,
        detail: 'The account already has the maximum of 2 API secrets; delete one first',
      });
    }
    return c.json(secretBody(apiKey, result.secret), 201);
  },
);

secrets.get('/accounts/:api_key/secrets/:secret_id', async (c) => {
  const apiKey = c.req.param('api_key');
  const account = await targetAccount(c.env, authOf(c), apiKey);
  const secret = await account.getSecret(c.req.param('secret_id'));
  if (!secret) throw secretNotFound(c.req.param('secret_id'));
  return c.json(secretBody(apiKey, secret));
});

secrets.delete('/accounts/:api_key/secrets/:secret_id', async (c) => {
  const account = await targetAccount(c.env, authOf(c), c.req.param('api_key'));
  const id = c.req.param('secret_id');
  const result = await account.deleteSecret(id);
  if (result === 'not-found') throw secretNotFound(id);
  if (result === 'last-secret') {
    throw new ApiError({
      kind: 'forbidden',
      type: ERROR_TYPES.deleteLastSecret,
      title: 'Secret Deletion Forbidden',
      detail:
        'Can not delete the last secret. The account must always have at least 1 secret active at any time',
    });
  }
  return c.body(null, 204);
});
