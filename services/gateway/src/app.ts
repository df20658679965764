import { ApiError, createApp, ERROR_TYPES, problemStyle } from '@comms/core';
import { type HostNames, matchRoute } from './families';
import { sandbox } from './sandbox';

/** The front worker: request ids, the sandbox control plane, and the host + path table. */
export const app = createApp<Env>({ style: problemStyle() });

app.use('/_sandbox/*', async (c, next) => {
  // Without a token the control plane does not exist at all.
  if (!c.env.SANDBOX_TOKEN) return c.notFound();
  await next();
});
app.route('/_sandbox', sandbox);

app.all('*', async (c) => {
  const url = new URL(c.req.url);
  const route = matchRoute(url.hostname, url.pathname, hostNames(c.env));
  const service = route
    ? (c.env as unknown as Record<string, Fetcher | undefined>)[route.binding]
    : undefined;
  if (!route || !service) {
    throw new ApiError({
      kind: 'not-found',
      type: ERROR_TYPES.notFound,
      detail: route
        ? `The ${route.family} API is not available on this deployment`
        : `No API serves ${c.req.method} ${url.pathname}`,
    });
  }
  // The request goes through untouched; the service names it (`x-request-id`, the problem body's
  // `instance`) and its response passes back as is.
  return service.fetch(c.req.raw);
});

function hostNames(env: Env): HostNames {
  return { api: env.API_HOST, rest: env.REST_HOST, eu: env.EU_HOST, token: env.TOKEN_HOST };
}
