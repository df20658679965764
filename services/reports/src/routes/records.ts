import { ApiError, authOf, type JsonObject, type ReportableUsage } from '@comms/core';
import { Hono } from 'hono';
import { REPORT_ERRORS } from '../errors';
import { accounts, checkAccess, ledgerPage } from '../ledger';
import { basicAuth, type ReportsEnv } from '../middleware';
import { encodeCursor, MAX_IDS, parseSyncQuery, type SyncQuery } from '../query';
import { isoSeconds, recordShape, reportRecord } from '../records';

/** `GET /v2/reports/records` (spec 4.12): usage records synchronously, a page at a time. */
export const records = new Hono<ReportsEnv>();

/** Records per answer; `_links.next` leads to the rest (the vendor's batch size). */
export const PAGE_SIZE = 1000;

records.get('/v2/reports/records', basicAuth, async (c) => {
  const auth = authOf(c);
  if (!(await accounts(c.env).takeAllowance(auth.apiKey, 'reports'))) throw throttled();
  const query = parseSyncQuery(c.req.query());
  await checkAccess(c.env, auth, query.accountId);
  // An id list is answered whole: every id's records fit in one page of the ledger.
  const page = await ledgerPage(
    c.env,
    query.accountId,
    query,
    query.cursor ?? null,
    query.ids ? MAX_IDS : PAGE_SIZE,
  );
  const shape = recordShape(query);
  const items = page.records.map((usage) => reportRecord(shape, usage, query.accountId));
  return c.json(envelope(new URL(c.req.url), query, items, page.records, page.next));
});

/** The response of spec 2.14 around one page of records. */
function envelope(
  url: URL,
  query: SyncQuery,
  items: JsonObject[],
  usages: ReportableUsage[],
  next: { createdAt: number; seq: number } | null,
): JsonObject {
  const links: JsonObject = { self: { href: url.toString() } };
  let cursor: string | undefined;
  if (next) {
    cursor = encodeCursor(next);
    const nextUrl = new URL(url);
    nextUrl.searchParams.set('cursor', cursor);
    links['next'] = { href: nextUrl.toString() };
  }
  return {
    _links: links,
    request_id: crypto.randomUUID(),
    request_status: 'SUCCESS',
    received_at: isoSeconds(Date.now()),
    // Reports cost nothing here; the vendor's price of the query itself.
    price: 0,
    currency: 'EUR',
    limit: PAGE_SIZE,
    account_id: query.accountId,
    product: query.product,
    ...(query.direction ? { direction: query.direction } : {}),
    ...(query.product === 'SMS' || query.product === 'MESSAGES'
      ? { include_message: query.includeMessage }
      : {}),
    ...(query.showConcatenated !== undefined ? { show_concatenated: query.showConcatenated } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.dateStart ? { date_start: query.dateStart.text } : {}),
    ...(query.dateEnd ? { date_end: query.dateEnd.text } : {}),
    ...(query.ids ? { ids_not_found: idsNotFound(query.ids, usages) } : {}),
    items_count: items.length,
    ...(cursor ? { cursor } : {}),
    records: items,
  };
}

/** The ids asked for that no record matched, as the comma list the reference shows. */
function idsNotFound(ids: string[], usages: ReportableUsage[]): string {
  const found = new Set(usages.map((u) => u.id));
  return ids.filter((id) => !found.has(id)).join(',');
}

function throttled(): ApiError {
  return new ApiError({
    kind: 'throttled',
    type: REPORT_ERRORS.throttled,
    title: 'Too Many Requests',
    detail: 'More than 10 synchronous report requests in the last second; please retry',
  });
}
