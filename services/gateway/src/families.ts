/**
 * The one table of the gateway: which family serves each host and path prefix (spec section 4).
 * A family whose service binding is absent from this deployment answers the documented 404
 * problem body, so the table can list every family before each is built.
 */

/** The vendor's hosts: `{base_url}`, `{rest_url}`, `{eu_url}` and `{token_url}` of the spec. */
export type HostClass = 'api' | 'rest' | 'eu' | 'token';

export type Family =
  | 'accounts'
  | 'numbers'
  | 'insight'
  | 'sms'
  | 'verify'
  | 'voice'
  | 'conversation'
  | 'meetings'
  | 'media'
  | 'redact'
  | 'reports'
  | 'tendlc'
  | 'dispatch'
  | 'external-accounts'
  | 'token';

export interface Route {
  family: Family;
  host: HostClass;
  /** Matches the path itself and everything below it (`/sms` matches `/sms/json`). */
  prefix: string;
  /** The service binding's name in the gateway's wrangler config. */
  binding: string;
}

export const ROUTES: readonly Route[] = [
  { family: 'accounts', host: 'rest', prefix: '/account', binding: 'ACCOUNTS' },
  { family: 'accounts', host: 'api', prefix: '/accounts', binding: 'ACCOUNTS' },
  { family: 'accounts', host: 'api', prefix: '/v2/applications', binding: 'ACCOUNTS' },
  { family: 'numbers', host: 'rest', prefix: '/account/numbers', binding: 'NUMBERS' },
  { family: 'numbers', host: 'rest', prefix: '/number', binding: 'NUMBERS' },
  { family: 'insight', host: 'api', prefix: '/ni', binding: 'INSIGHT' },
  { family: 'sms', host: 'rest', prefix: '/sms', binding: 'SMS' },
  { family: 'verify', host: 'api', prefix: '/verify', binding: 'VERIFY' },
  { family: 'voice', host: 'api', prefix: '/v1/calls', binding: 'VOICE' },
  // Call recordings: the `recording_url` of record events, and where the official SDK downloads by id.
  { family: 'voice', host: 'api', prefix: '/v1/files', binding: 'VOICE' },
  { family: 'voice', host: 'api', prefix: '/v3/files', binding: 'VOICE' },
  { family: 'conversation', host: 'api', prefix: '/beta/conversations', binding: 'CONVERSATION' },
  { family: 'conversation', host: 'api', prefix: '/beta/users', binding: 'CONVERSATION' },
  { family: 'conversation', host: 'api', prefix: '/beta2', binding: 'CONVERSATION' },
  { family: 'conversation', host: 'api', prefix: '/v0.2', binding: 'CONVERSATION' },
  { family: 'conversation', host: 'api', prefix: '/v1/conversations', binding: 'CONVERSATION' },
  { family: 'meetings', host: 'eu', prefix: '/beta/meetings', binding: 'MEETINGS' },
  { family: 'media', host: 'api', prefix: '/v3/media', binding: 'MEDIA' },
  { family: 'redact', host: 'api', prefix: '/v1/redact', binding: 'REDACT' },
  { family: 'reports', host: 'api', prefix: '/v2/reports', binding: 'REPORTS' },
  { family: 'tendlc', host: 'eu', prefix: '/v1/10dlc', binding: 'TENDLC' },
  { family: 'dispatch', host: 'api', prefix: '/v0.1/dispatch', binding: 'DISPATCH' },
  {
    family: 'external-accounts',
    host: 'api',
    prefix: '/beta/chatapp-accounts',
    binding: 'EXTERNAL_ACCOUNTS',
  },
  { family: 'token', host: 'token', prefix: '/token', binding: 'TOKEN' },
];

/** The configured host name of each host class; an empty one accepts any host (local dev). */
export type HostNames = Record<HostClass, string>;

/**
 * The route for a request: the longest prefix that matches the path on an accepted host.
 *
 * @example
 * matchRoute('rest.example.com', '/account/numbers', hosts) // the numbers route, not accounts
 */
export function matchRoute(host: string, path: string, hosts: HostNames): Route | undefined {
  let best: Route | undefined;
  for (const route of ROUTES) {
    const expected = hosts[route.host];
    if (expected && expected.toLowerCase() !== host.toLowerCase()) continue;
    if (path !== route.prefix && !path.startsWith(`${route.prefix}/`)) continue;
    if (!best || route.prefix.length > best.prefix.length) best = route;
  }
  return best;
}
