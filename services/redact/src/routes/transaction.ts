import {
  type AccountsRpc,
  authenticate,
  authOf,
  type FamilyEnv,
  type RedactableRpc,
  rpc,
  type UsageReportingRpc,
} from '@comms/core';
import { Hono } from 'hono';
import { invalidId, prematureRedaction, rateLimited, unprovisioned } from '../errors';
import { REDACT_PRODUCTS } from '../products';
import { type RedactRequest, readRedactRequest } from '../request';

/** `POST /v1/redact/transaction` (spec 4.11): removes the personal data of one past transaction. */
export const transaction = new Hono<FamilyEnv<Env>>();

const accounts = (env: Env) => rpc<AccountsRpc & UsageReportingRpc>(env.ACCOUNTS);

/** The deployment's waiting time, spec 8's hour unless the var says otherwise. */
const DEFAULT_WAIT_SECONDS = 3600;

transaction.post(
  '/v1/redact/transaction',
  authenticate({ modes: ['basic'], store: (c) => accounts(c.env as Env) }),
  async (c) => {
    const { apiKey } = authOf(c);
    if (!(await accounts(c.env).takeAllowance(apiKey, 'redact'))) throw rateLimited();
    const request = readRedactRequest(await c.req.text());
    const target = REDACT_PRODUCTS[request.product];
    // Trial (demo-mode) accounts are not provisioned for Redact, as the vendor's trial accounts are not.
    if ((await accounts(c.env).flags(apiKey))?.demoMode !== false) throw unprovisioned(apiKey, target.label);
    await checkWaitingTime(c.env, apiKey, request);
    await scrubFamilyCopy(c.env, apiKey, request);
    await accounts(c.env).redactUsage(apiKey, request.id, target.ledger);
    return c.body(null, 204);
  },
);

/**
 * 404 when the ledger has no such transaction; 403 `premature-redaction` until its newest record is
 * as old as the account's waiting time (the sandbox's `redact_after_seconds`, else the deployment's).
 */
async function checkWaitingTime(env: Env, apiKey: string, request: RedactRequest): Promise<void> {
  const target = REDACT_PRODUCTS[request.product];
  const [records, settings] = await Promise.all([
    accounts(env).usage(apiKey, {
      product: target.ledger,
      ids: [request.id],
      ...(request.type ? { direction: request.type } : {}),
      limit: 100,
    }),
    accounts(env).redactionSettings(apiKey),
  ]);
  if (!records.length) throw invalidId(request.id, request.type);
  const wait = settings?.waitSeconds ?? (Number(env.REDACT_AFTER_SECONDS) || DEFAULT_WAIT_SECONDS);
  const newest = Math.max(...records.map((r) => r.createdAt));
  if (Date.now() - newest < wait * 1000) throw prematureRedaction(request.id, wait);
}

/** Asks the family that keeps its own copy to scrub it, when this deployment binds that family. */
async function scrubFamilyCopy(env: Env, apiKey: string, request: RedactRequest): Promise<void> {
  const binding = (env as unknown as Record<string, unknown>)[REDACT_PRODUCTS[request.product].binding];
  if (!binding) return;
  await rpc<RedactableRpc>(binding).redactTransaction(apiKey, request.id, request.type);
}
