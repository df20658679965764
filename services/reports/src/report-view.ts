import type { AccountIdentity } from '@comms/core';
import type { AsyncRequest } from './query';
import { isoSeconds } from './records';

/** The states of an asynchronous report (spec 3.4). */
export type ReportStatus = 'PENDING' | 'PROCESSING' | 'SUCCESS' | 'ABORTED' | 'FAILED' | 'TRUNCATED';

export const REPORT_STATUSES: readonly ReportStatus[] = [
  'PENDING',
  'PROCESSING',
  'SUCCESS',
  'ABORTED',
  'FAILED',
  'TRUNCATED',
];

/** States a report leaves only by expiring; cancelling one of them is a 409. */
export const TERMINAL: ReadonlySet<ReportStatus> = new Set(['SUCCESS', 'ABORTED', 'FAILED', 'TRUNCATED']);

/** An asynchronous report as its book stores it. */
export interface ReportRow extends Record<string, SqlStorageValue> {
  id: string;
  requester: string;
  account_id: string;
  /** The AsyncRequest, JSON. */
  request: string;
  /** Scheme and host the report was requested on, for its links. */
  origin: string;
  status: ReportStatus;
  receive_time: number;
  start_time: number | null;
  end_time: number | null;
  items_count: number;
  /** How far a PROCESSING report has read (JSON), null otherwise. */
  progress: string | null;
  failures: number;
  file_id: string | null;
}

/** Where a report's file is downloaded. */
export function downloadPath(fileId: string): string {
  return `/v2/reports/files/${fileId}`;
}

/** A report as the API shows it; a closed type, so that it crosses RPC without deep type mapping. */
export interface ReportView {
  request_id: string;
  request_status: ReportStatus;
  product: string;
  account_id: string;
  date_start: string;
  date_end: string;
  include_subaccounts: boolean;
  callback_url?: string;
  direction?: string;
  status?: string;
  include_message?: boolean;
  show_concatenated?: boolean;
  type?: string;
  receive_time: string;
  start_time?: string;
  items_count?: number;
  _links: { self: { href: string }; download_report?: { href: string } };
}

/**
 * A report as `GET /v2/reports/:id` shows it and its callback sends it (reference `report_response`):
 * the request's filters, the status and times, `items_count` once complete, and the download link
 * once there is a file.
 */
export function reportJson(row: ReportRow): ReportView {
  const request = JSON.parse(row.request) as AsyncRequest;
  const links: ReportView['_links'] = { self: { href: `${row.origin}/v2/reports/${row.id}` } };
  if (row.file_id) links['download_report'] = { href: `${row.origin}${downloadPath(row.file_id)}` };
  const complete = row.status === 'SUCCESS' || row.status === 'TRUNCATED';
  return {
    request_id: row.id,
    request_status: row.status,
    product: request.product,
    account_id: request.accountId,
    date_start: request.dateStart.text,
    date_end: request.dateEnd.text,
    include_subaccounts: request.includeSubaccounts,
    ...(request.callbackUrl ? { callback_url: request.callbackUrl } : {}),
    ...(request.direction ? { direction: request.direction } : {}),
    ...(request.status ? { status: request.status } : {}),
    ...(request.product === 'SMS' || request.product === 'MESSAGES'
      ? { include_message: request.includeMessage }
      : {}),
    ...(request.showConcatenated !== undefined ? { show_concatenated: request.showConcatenated } : {}),
    ...(request.type ? { type: request.type } : {}),
    receive_time: isoSeconds(row.receive_time),
    ...(row.start_time !== null ? { start_time: isoSeconds(row.start_time) } : {}),
    ...(complete ? { items_count: row.items_count } : {}),
    _links: links,
  };
}

/**
 * Whether a caller sees a report: the primary account sees every report of its book; a secondary
 * account those about it or asked for by it.
 */
export function visibleTo(
  row: Pick<ReportRow, 'account_id' | 'requester'>,
  viewer: AccountIdentity,
): boolean {
  return viewer.primaryApiKey === null || row.account_id === viewer.apiKey || row.requester === viewer.apiKey;
}
