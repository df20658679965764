import { ApiError, authOf, errorStyle, legacyStyle, param, readParams } from '@comms/core';
import {
  allCountryPricing,
  countryPricing,
  isPricingType,
  type PricingType,
  prefixPricing,
  toPricingJson,
} from '@comms/network';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { accountOf } from '../accounts';
import { type AccountsEnv, auth } from '../middleware';

/** Outbound pricing (spec 4.3, 2.5): one request per second per account. */
export const pricing = new Hono<AccountsEnv>();

pricing.use('/account/get-pricing/*', errorStyle(legacyStyle()), auth(['key-secret', 'signature']), throttle);
pricing.use(
  '/account/get-full-pricing/*',
  errorStyle(legacyStyle()),
  auth(['key-secret', 'signature']),
  throttle,
);
pricing.use(
  '/account/get-prefix-pricing/*',
  errorStyle(legacyStyle()),
  auth(['key-secret', 'signature']),
  throttle,
);

async function throttle(c: Context<AccountsEnv>, next: () => Promise<void>) {
  if (!(await accountOf(c.env, authOf(c).apiKey).takeThroughput('pricing'))) {
    throw new ApiError({
      kind: 'throttled',
      label: 'too many requests: the pricing API allows one request per second',
    });
  }
  await next();
}

/** The pricing 400 body of spec 7.2. */
function badRequest(c: Context, parameter: string, message: string) {
  return c.json(
    { type: 'BAD_REQUEST', error_title: 'Bad Request', invalid_parameters: { parameter, message } },
    400,
  );
}

function pricingType(c: Context): PricingType | undefined {
  const type = c.req.param('type');
  return type !== undefined && isPricingType(type) ? type : undefined;
}

const TYPE_MESSAGE = 'Must be one of sms, sms-transit, voice';

pricing.get('/account/get-pricing/outbound/:type', async (c) => {
  const type = pricingType(c);
  if (!type) return badRequest(c, 'type', TYPE_MESSAGE);
  const country = param(await readParams(c), 'country');
  if (!country) return badRequest(c, 'country', 'Is required');
  if (!/^[A-Za-z]{2}$/.test(country)) return badRequest(c, 'country', 'Must be a two-letter country code');
  const result = countryPricing(type, country.toUpperCase());
  if (!result) return badRequest(c, 'country', 'Is not a known country code');
  return c.json(toPricingJson(result, { withCountryCode: true }));
});

pricing.get('/account/get-full-pricing/outbound/:type', async (c) => {
  const type = pricingType(c);
  if (!type) return badRequest(c, 'type', TYPE_MESSAGE);
  const countries = allCountryPricing(type).map((p) => toPricingJson(p, { withCountryCode: false }));
  return c.json({ count: String(countries.length), countries });
});

pricing.get('/account/get-prefix-pricing/outbound/:type', async (c) => {
  const type = pricingType(c);
  if (!type) return badRequest(c, 'type', TYPE_MESSAGE);
  const prefix = param(await readParams(c), 'prefix');
  if (!prefix) return badRequest(c, 'prefix', 'Is required');
  if (!/^\d{1,15}$/.test(prefix)) return badRequest(c, 'prefix', 'Must be a numeric dialing prefix');
  const countries = prefixPricing(type, prefix).map((p) => toPricingJson(p, { withCountryCode: false }));
  return c.json({ count: String(countries.length), countries });
});
