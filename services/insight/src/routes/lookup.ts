import { readParams, respond } from '@comms/core';
import { Hono } from 'hono';
import { performLookup } from '../lookup';
import { type InsightEnv, insightRoute } from '../middleware';
import { lookupParams } from '../params';
import type { Level } from '../pricing';
import { insightJson, insightXml } from '../render';
import { XML_ROOT } from '../status';

/**
 * `GET|POST /ni/basic/:format`, `/ni/standard/:format`, `/ni/advanced/:format` (spec 4.4): the
 * synchronous lookups, one handler for the three levels.
 */
export const lookup = new Hono<InsightEnv>();

const LEVELS: readonly Level[] = ['basic', 'standard', 'advanced'];

for (const level of LEVELS) {
  lookup.on(['GET', 'POST'], `/ni/${level}/:format`, ...insightRoute(level), async (c) => {
    const params = lookupParams(level, await readParams(c));
    const insight = await performLookup(c, level, params);
    return respond(c, insightJson(insight), { root: XML_ROOT[level], xml: insightXml(insight) });
  });
}
