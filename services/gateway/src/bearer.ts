import { ApiError } from '@comms/core';
import { createMiddleware } from 'hono/factory';

/** Requires `Authorization: Bearer $SANDBOX_TOKEN`, compared in constant time. */
export const bearer = createMiddleware<{ Bindings: Env }>(async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const given = header.replace(/^bearer\s+/i, '');
  if (!/^bearer\s/i.test(header) || !constantTimeEqual(given, c.env.SANDBOX_TOKEN)) {
    throw new ApiError({
      kind: 'unauthorized',
      detail: 'The sandbox API needs Authorization: Bearer <SANDBOX_TOKEN>',
    });
  }
  await next();
});

function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
