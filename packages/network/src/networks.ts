import records from 'mcc-mnc-list/mcc-mnc-list.json';
import { countries, countryByCode } from './countries';

export type NetworkType = 'mobile' | 'landline';

/** A network numbers of a country can be on. */
export interface Network {
  /** Mobile country code, 3 digits; '' for a landline network of a country without one. */
  mcc: string;
  /** Mobile network code, 2 or 3 digits as assigned; '' for landline networks. */
  mnc: string;
  /** mcc + mnc ('23415') for mobile networks; '<country>-FIXED' ('GB-FIXED') for landline networks. */
  networkCode: string;
  /** Brand, or operator when there is no brand; never empty. */
  networkName: string;
  /** ISO 3166-1 alpha-2 code of the country this entry belongs to. */
  country: string;
  type: NetworkType;
}

/** The fields of mcc-mnc-list records this module reads; the JSON has nulls where Wikipedia has blanks. */
interface MccMncRecord {
  countryCode: string | null;
  mcc: string | null;
  mnc: string | null;
  brand: string | null;
  operator: string | null;
  status: string | null;
}

/**
 * Statuses kept. 'Unknown' is kept because Wikipedia leaves the status blank for many live networks
 * (most UK MVNOs, for one); everything else in the data ('Not operational', 'Reserved', 'Allocated',
 * 'Returned spare', 'Planned', 'Upcoming', 'Testing', 'Test Network', 'Implement / Design', 'Ongoing')
 * is a code that does not carry traffic today.
 */
const LIVE_STATUSES: ReadonlySet<string> = new Set(['Operational', 'Temporary operational', 'Unknown']);

/** Name given to released codes that linger in the list. */
const PLACEHOLDER_NAMES: ReadonlySet<string> = new Set(['unassigned', 'unknown']);

interface NetworkTable {
  all: readonly Network[];
  byCountry: ReadonlyMap<string, readonly Network[]>;
  /** networkCode -> the entry of the country that owns the code's MCC (see `networkByCode`). */
  primary: ReadonlyMap<string, Network>;
}

let table: NetworkTable | undefined;

/** Built on first use: mapping ~3,000 records is cheap but not free at a worker's cold start. */
function networkTable(): NetworkTable {
  if (table) return table;
  const mobile = mobileNetworks();
  const homeMcc = homeMccs(mobile);
  const byCountry = new Map<string, Network[]>();
  for (const network of mobile) pushTo(byCountry, network.country, network);
  for (const country of countries()) {
    pushTo(
      byCountry,
      country.code,
      landlineNetwork(country.code, country.displayName, homeMcc.get(country.code)),
    );
  }
  for (const list of byCountry.values()) list.sort(compareNetworks);
  const all = [...byCountry.values()].flat().sort(compareNetworks);
  table = { all, byCountry, primary: primaryNetworks(all, homeMcc) };
  return table;
}

/**
 * Live mobile networks, one entry per (country, networkCode). Records listing several territories
 * ('AU/CC/CX', 'BL/GF/GP/MF/MQ') are given to each, because one network really serves all of them.
 * Skipped: records without a country (test and international codes), countries unknown to
 * libphonenumber (Abkhazia, 'GE-AB'), malformed codes ('?', '100 - 190'), non-live statuses, nameless
 * or 'Unassigned' records. A code listed twice for a country keeps its first record.
 */
function mobileNetworks(): Network[] {
  const seen = new Set<string>();
  const out: Network[] = [];
  for (const record of records as readonly MccMncRecord[]) {
    const { mcc, mnc, status, countryCode } = record;
    if (!mcc || !mnc || !/^\d{3}$/.test(mcc) || !/^\d{2,3}$/.test(mnc)) continue;
    if (!status || !LIVE_STATUSES.has(status) || !countryCode) continue;
    const networkName = nameOf(record);
    if (networkName === undefined) continue;
    for (const code of countryCode.split('/')) {
      const country = countryByCode(code)?.code;
      const key = `${country}:${mcc}${mnc}`;
      if (country === undefined || seen.has(key)) continue;
      seen.add(key);
      out.push({ mcc, mnc, networkCode: mcc + mnc, networkName, country, type: 'mobile' });
    }
  }
  return out;
}

function nameOf(record: MccMncRecord): string | undefined {
  const name = (record.brand?.trim() || record.operator?.trim()) ?? '';
  return name === '' || PLACEHOLDER_NAMES.has(name.toLowerCase()) ? undefined : name;
}

/**
 * The mobile list has no fixed-line networks, so each country gets one synthetic landline network. Its
 * code follows the vendor's '<country>-FIXED' convention rather than mcc+mnc: fixed lines have no MNC,
 * and a made-up MNC could collide with a real one. The MCC is the country's home MCC so consumers that
 * group by MCC still see it with the country; it is '' for the few countries with no MCC in the data.
 */
function landlineNetwork(country: string, countryName: string, mcc = ''): Network {
  return {
    mcc,
    mnc: '',
    networkCode: `${country}-FIXED`,
    networkName: `${countryName} Landline`,
    country,
    type: 'landline',
  };
}

/**
 * A country's home MCC: the one most of its networks use (ties: the lowest). Puerto Rico has networks
 * under the US MCCs 310-316 as well as its own 330; counting keeps each country's own.
 */
function homeMccs(mobile: readonly Network[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const { country, mcc } of mobile) {
    const perMcc = counts.get(country) ?? new Map<string, number>();
    perMcc.set(mcc, (perMcc.get(mcc) ?? 0) + 1);
    counts.set(country, perMcc);
  }
  const home = new Map<string, string>();
  for (const [country, perMcc] of counts) home.set(country, mostUsed(perMcc));
  return home;
}

function mostUsed(counts: ReadonlyMap<string, number>): string {
  return [...counts].sort(([a, na], [b, nb]) => nb - na || a.localeCompare(b))[0]![0];
}

/**
 * For codes several territories share (310260 is T-Mobile in US, PR and VI) the primary entry is the one
 * whose country has that MCC as its home MCC; failing that, the first by country code.
 */
function primaryNetworks(
  all: readonly Network[],
  homeMcc: ReadonlyMap<string, string>,
): Map<string, Network> {
  const primary = new Map<string, Network>();
  for (const network of all) {
    const current = primary.get(network.networkCode);
    const isHome = homeMcc.get(network.country) === network.mcc;
    if (!current || (isHome && homeMcc.get(current.country) !== current.mcc)) {
      primary.set(network.networkCode, network);
    }
  }
  return primary;
}

function compareNetworks(a: Network, b: Network): number {
  return compareText(a.networkCode, b.networkCode) || compareText(a.country, b.country);
}

/** Plain code-unit order, so the order does not depend on the runtime's locale data. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Networks of a country (case-insensitive alpha-2), mobile ones and its landline, sorted by networkCode;
 * empty for an unknown country.
 *
 * @example
 * networksOf('GB').find((n) => n.networkCode === '23415')?.networkName // 'Vodafone UK'
 * networksOf('GB').at(-1)?.networkCode // 'GB-FIXED'
 */
export function networksOf(countryCode: string): readonly Network[] {
  const country = countryByCode(countryCode);
  return country ? (networkTable().byCountry.get(country.code) ?? []) : [];
}

/**
 * A network by code. Some codes serve several territories; without `countryCode` the entry of the
 * country owning the code's MCC is returned, with it the entry of that country (undefined if the network
 * does not serve it).
 *
 * @example
 * networkByCode('310260')?.country // 'US'
 * networkByCode('310260', 'PR')?.country // 'PR'
 * networkByCode('GB-FIXED')?.type // 'landline'
 */
export function networkByCode(networkCode: string, countryCode?: string): Network | undefined {
  const code = networkCode.trim().toUpperCase();
  if (countryCode === undefined) return networkTable().primary.get(code);
  return networksOf(countryCode).find((n) => n.networkCode === code);
}

/**
 * Every network entry of every country, sorted by networkCode then country. A code shared by several
 * territories appears once per territory; one landline entry per country.
 *
 * @example
 * allNetworks().filter((n) => n.type === 'landline').length === countries().length // true
 */
export function allNetworks(): readonly Network[] {
  return networkTable().all;
}
