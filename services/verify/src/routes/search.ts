import { authOf, type FamilyEnv, type JsonObject, readParams } from '@comms/core';
import { Hono } from 'hono';
import { searchItem } from '../facts';
import { endpoint, isRequestId, throttle } from '../middleware';
import { requestOf } from '../objects';
import { readSearch } from '../params';
import { answer, answerList } from '../render';
import { STATUS_TEXT, VERIFY_STATUS, VerifyRefusal } from '../status';

/**
 * `GET|POST /verify/search/:format` (spec 4.6, 2.8): one request by `request_id`, or up to ten by
 * `request_ids`. An account sees only its own requests; any other id is not found (status 101).
 */
export const search = new Hono<FamilyEnv<Env>>();

const PATH = '/verify/search/:format';

search.use(PATH, ...endpoint('search'));

search.on(['GET', 'POST'], PATH, async (c) => {
  const { ids, list } = readSearch(await readParams(c));
  await throttle(c);
  const apiKey = authOf(c).apiKey;
  const found = (await Promise.all(ids.map((id) => find(c.env, apiKey, id)))).filter(
    (item): item is JsonObject => item !== null,
  );
  if (found.length === 0) throw new VerifyRefusal(VERIFY_STATUS.noResponse, STATUS_TEXT.noResponse);
  return list ? answerList(c, found) : answer(c, 'search', found[0]!);
});

async function find(env: Env, apiKey: string, id: string): Promise<JsonObject | null> {
  if (!isRequestId(id)) return null;
  const snapshot = await requestOf(env, id).search(apiKey);
  return snapshot && searchItem(snapshot.facts, snapshot.state);
}
