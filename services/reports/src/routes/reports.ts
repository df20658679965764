import { type AccountIdentity, ApiError, type AuthContext, authOf } from '@comms/core';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { REPORT_ERRORS, reportNotFound } from '../errors';
import { checkAccess } from '../ledger';
import { basicAuth, type ReportsEnv } from '../middleware';
import { parseAsyncRequest, type RawParams } from '../query';
import { REPORT_STATUSES, type ReportStatus } from '../report-view';

/**
 * The asynchronous reports of the reference: create (`POST /v2/reports`), list, read, cancel, and
 * download the finished file (`GET /v2/reports/files/:file_id`).
 */
export const reports = new Hono<ReportsEnv>();

/** The report book of the caller's primary account, where its and its secondaries' reports live. */
export function bookOf(env: Env, auth: AccountIdentity) {
  const root = auth.primaryApiKey ?? auth.apiKey;
  return { root, stub: env.REPORT_BOOK.get(env.REPORT_BOOK.idFromName(root)) };
}

function viewer(auth: AuthContext): AccountIdentity {
  return { apiKey: auth.apiKey, primaryApiKey: auth.primaryApiKey };
}

reports.post('/v2/reports', basicAuth, async (c) => {
  const auth = authOf(c);
  const request = parseAsyncRequest(await jsonBody(c));
  await checkAccess(c.env, auth, request.accountId);
  const book = bookOf(c.env, auth);
  // Listed first, so that a sandbox reset reaches a book that holds anything.
  await c.env.REPORTS_DIRECTORY.get(c.env.REPORTS_DIRECTORY.idFromName('directory')).note('book', book.root);
  const report = await book.stub.create({
    requester: auth.apiKey,
    request,
    origin: new URL(c.req.url).origin,
  });
  return c.json(report);
});

reports.get('/v2/reports', basicAuth, async (c) => {
  const auth = authOf(c);
  const filter = listFilter(c.req.query());
  await checkAccess(c.env, auth, filter.accountId);
  const found = await bookOf(c.env, auth).stub.list(viewer(auth), filter);
  return c.json({ items_count: found.length, self_link: c.req.url, reports: found });
});

reports.get('/v2/reports/files/:file_id', basicAuth, async (c) => {
  const fileId = c.req.param('file_id');
  const file = await bookOf(c.env, authOf(c)).stub.file(fileId, viewer(authOf(c)));
  if (!file) throw reportNotFound(fileId);
  return c.body(file.body, 200, {
    'content-type': 'application/octet-stream',
    'content-length': String(file.size),
    'content-disposition': `attachment; filename="${file.name}"`,
  });
});

reports.get('/v2/reports/:report_id', basicAuth, async (c) => {
  const id = c.req.param('report_id');
  const report = await bookOf(c.env, authOf(c)).stub.get(id, viewer(authOf(c)));
  if (!report) throw reportNotFound(id);
  return c.json(report);
});

reports.delete('/v2/reports/:report_id', basicAuth, async (c) => {
  const id = c.req.param('report_id');
  const result = await bookOf(c.env, authOf(c)).stub.cancel(id, viewer(authOf(c)));
  if (result.ok) return c.json(result.report);
  if (result.reason === 'not-found') throw reportNotFound(id);
  throw new ApiError({
    kind: 'conflict',
    type: REPORT_ERRORS.invalidAbort,
    title: 'Invalid Abort Operation',
    detail: 'The job is already in a terminated state such as `SUCCESS`, `TRUNCATED`, `FAILED` or `ABORTED`.',
  });
});

/** The JSON object body of a create request; anything else is the reference's 400 "Malformed JSON". */
async function jsonBody(c: Context<ReportsEnv>): Promise<RawParams> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError({
      kind: 'validation',
      type: REPORT_ERRORS.invalidJson,
      title: 'Malformed JSON',
      detail: 'Malformed JSON payload.',
    });
  }
  return body as RawParams;
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The query of `GET /v2/reports`: `account_id` and a comma list of `status` required, `date_from` and
 * `date_to` optional; anything wrong is the reference's 400 "Invalid request parameter".
 */
function listFilter(query: Record<string, string>): {
  accountId: string;
  statuses: ReportStatus[];
  from?: number;
  to?: number;
} {
  const invalid: { name: string; reason: string }[] = [];
  const accountId = query['account_id'] ?? '';
  if (!/^[0-9a-zA-Z]{8}$/.test(accountId))
    invalid.push({ name: 'account_id', reason: 'Required: an API key' });
  const statuses = (query['status'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!statuses.length || statuses.some((s) => !(REPORT_STATUSES as readonly string[]).includes(s))) {
    invalid.push({ name: 'status', reason: `Required: a comma list of ${REPORT_STATUSES.join(', ')}` });
  }
  const times: { from?: number; to?: number } = {};
  for (const [name, key] of [
    ['date_from', 'from'],
    ['date_to', 'to'],
  ] as const) {
    const text = query[name];
    if (text === undefined) continue;
    const ms = ISO_WITH_OFFSET.test(text)
      ? Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
      : Number.NaN;
    if (Number.isNaN(ms)) invalid.push({ name, reason: 'Must be ISO 8601 with a zone offset or Z' });
    else times[key] = ms;
  }
  if (invalid.length) {
    throw new ApiError({
      kind: 'validation',
      type: REPORT_ERRORS.invalidRequestParameters,
      title: 'Invalid request parameter',
      detail: 'Invalid request parameter.',
      invalidParameters: invalid,
    });
  }
  return { accountId, statuses: statuses as ReportStatus[], ...times };
}
