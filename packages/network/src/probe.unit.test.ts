import { test } from 'vitest';
import { formatAmount } from '@comms/core';
import * as n from './index';
test('probe', () => {
  const t0 = performance.now();
  const all = n.allNetworks();
  console.log('build ms', performance.now() - t0);
  console.log('countries', n.countries().length, 'entries', all.length, 'mobile', all.filter((x) => x.type === 'mobile').length, 'unique codes', new Set(all.map((x) => x.networkCode)).size);
  console.log(n.countries().filter((c) => c.name !== c.displayName).map((c) => `${c.code}:${c.name}->${c.displayName}`).join('; '));
  console.log(n.countries().filter((c) => !c.alpha3));
  console.log(JSON.stringify(n.toPricingJson(n.countryPricing('sms', 'CA')!, { withCountryCode: true })).slice(0, 600));
  console.log(JSON.stringify(n.toPricingJson(n.countryPricing('voice', 'GB')!, { withCountryCode: false })).slice(0, 400));
  for (const cc of ['GB', 'US', 'DE', 'IN', 'VA', 'AX', 'PR', 'GP']) {
    for (const t of ['sms', 'sms-transit', 'voice'] as const) {
      const p = n.countryPricing(t, cc)!;
      console.log(cc, t, formatAmount(p.defaultPrice), p.networks.length, p.networks.slice(0, 3).map((x) => x.networkCode + '=' + formatAmount(x.price)).join(' '), p.networks.at(-1)?.networkCode);
    }
  }
  console.log(n.networksOf('GB').map((x) => x.networkCode + ' ' + x.networkName).join(', '));
  console.log(n.networkByCode('310260'), n.networkByCode('34001'), n.networkByCode('50510'), n.networkByCode('23403'));
  console.log(n.countriesByDialingPrefix('1').map((c) => c.code).join(','), n.countriesByDialingPrefix('4479').map((c) => c.code));
  console.log(n.networkPrice('voice', 'GB-FIXED'), n.networkPrice('sms', '23415'), n.priceFor('sms', 'GB', '23415'));
  console.log(n.networksOf('VA'));
});
