import { authOf, readParams, respond, webhookJob } from '@comms/core';
import { Hono } from 'hono';
import type { Insight } from '../insight';
import { performLookup } from '../lookup';
import { accounts, type InsightEnv, insightRoute } from '../middleware';
import { lookupParams } from '../params';
import { asyncAckJson, asyncAckXml, insightJson } from '../render';
import { XML_ROOT } from '../status';

/**
 * `GET|POST /ni/advanced/async/:format` (spec 4.4): an advanced lookup answered at once with an
 * acknowledgement; the full result goes to `callback` through the webhooks queue.
 */
export const asyncLookup = new Hono<InsightEnv>();

/**
 * Hands the result to the webhooks service, which delivers and retries it. If it cannot take the
 * job, the client would pay for a result it never gets: the charge is refunded and the request fails
 * with status 5.
 */
async function enqueueResult(env: Env, apiKey: string, callback: string, insight: Insight): Promise<void> {
  try {
    await env.WEBHOOKS_QUEUE.send(
      webhookJob({
        accountKey: apiKey,
        kind: 'insight-async',
        url: callback,
        method: 'POST',
        encoding: 'json',
        body: insightJson(insight),
        signing: 'none',
      }),
    );
  } catch (err) {
    if (insight.quote.charge > 0) {
      await accounts(env).refund(apiKey, {
        product: 'NUMBER-INSIGHT',
        id: insight.requestId,
        amount: insight.quote.charge,
      });
    }
    throw err;
  }
}

asyncLookup.on(['GET', 'POST'], '/ni/advanced/async/:format', ...insightRoute('async'), async (c) => {
  const params = lookupParams('async', await readParams(c));
  const insight = await performLookup(c, 'advanced', params);
  await enqueueResult(c.env, authOf(c).apiKey, params.callback, insight);
  return respond(c, asyncAckJson(insight, params.number), {
    root: XML_ROOT.async,
    xml: asyncAckXml(insight, params.number),
  });
});
