import { type Network, networksOf } from './networks';
import { fnv1a } from './pricing';

/**
 * Approximate subscriber shares (percent) of the main mobile operators in the markets developers test
 * with most. The MCC/MNC list also holds railway, defence and M2M networks (GB 23412 'Railtrack', DE
 * 26213 'BAAINBw'); picking uniformly from it would put a third of British phones on such networks. Each
 * operator is listed under one representative code. Countries not listed draw uniformly from all their
 * live mobile networks.
 */
const MAJOR_OPERATORS: Readonly<
  Record<string, ReadonlyArray<readonly [networkCode: string, share: number]>>
> = {
  AE: [
    ['42402', 60], // Etisalat
    ['42403', 40], // du
  ],
  AT: [
    ['23201', 39], // A1
    ['23203', 33], // Magenta
    ['23205', 28], // 3
  ],
  AU: [
    ['50501', 45], // Telstra
    ['50502', 32], // Optus
    ['50503', 23], // Vodafone
  ],
  BE: [
    ['20601', 40], // Proximus
    ['20610', 35], // Orange Belgium
    ['20620', 25], // Base
  ],
  CA: [
    ['302720', 32], // Rogers
    ['302610', 28], // Bell
    ['302220', 28], // Telus
    ['302490', 8], // Freedom
    ['302500', 4], // Videotron
  ],
  CH: [
    ['22801', 56], // Swisscom
    ['22802', 27], // Sunrise
    ['22803', 17], // Salt
  ],
  DE: [
    ['26201', 37], // Telekom
    ['26202', 30], // Vodafone
    ['26203', 31], // O2
    ['26223', 2], // 1&1
  ],
  ES: [
    ['21407', 27], // Movistar
    ['21403', 25], // Orange
    ['21401', 22], // Vodafone
    ['21422', 16], // DIGI
    ['21404', 10], // Yoigo
  ],
  FR: [
    ['20801', 38], // Orange
    ['20810', 25], // SFR
    ['20820', 20], // Bouygues
    ['20815', 17], // Free
  ],
  GB: [
    ['23430', 35], // EE
    ['23410', 27], // O2
    ['23415', 23], // Vodafone
    ['23420', 15], // 3
  ],
  IN: [
    ['405840', 40], // Jio
    ['40410', 34], // Airtel
    ['40420', 19], // Vi
    ['40434', 7], // BSNL
  ],
  IT: [
    ['22201', 29], // TIM
    ['22210', 27], // Vodafone
    ['22288', 24], // WINDTRE
    ['22250', 14], // Iliad
    ['22208', 6], // Fastweb
  ],
  NL: [
    ['20408', 38], // KPN
    ['20404', 32], // Vodafone
    ['20416', 30], // T-Mobile (Odido)
  ],
  NZ: [
    ['53005', 39], // Spark
    ['53001', 37], // One NZ (Vodafone)
    ['53024', 24], // 2degrees
  ],
  US: [
    ['311480', 36], // Verizon
    ['310410', 33], // AT&T
    ['310260', 31], // T-Mobile
  ],
};

/** A network a number can be assigned to, with its weight in the draw. */
export interface WeightedNetwork {
  network: Network;
  weight: number;
}

const pools = new Map<string, readonly WeightedNetwork[]>();

/**
 * The mobile networks numbers of a country are drawn from, with weights: the major operators by share
 * where known, otherwise every live mobile network with weight 1. Empty when the country has no mobile
 * network in the data. Memoised per country.
 *
 * @example
 * mobilePool('GB').map((w) => w.network.networkName) // ['EE', 'O2 (UK)', 'Vodafone UK', '3']
 * mobilePool('VA') // []
 */
export function mobilePool(country: string): readonly WeightedNetwork[] {
  const cached = pools.get(country);
  if (cached) return cached;
  const mobile = networksOf(country).filter((n) => n.type === 'mobile');
  const major = (MAJOR_OPERATORS[country] ?? []).flatMap(([code, weight]) => {
    const network = mobile.find((n) => n.networkCode === code);
    // A data upgrade could drop a code; fall back to the uniform pool rather than lose the operator silently.
    return network ? [{ network, weight }] : [];
  });
  const pool = major.length >= 2 ? major : mobile.map((network) => ({ network, weight: 1 }));
  pools.set(country, pool);
  return pool;
}

/**
 * A 32-bit hash of a key, well spread in its low bits: FNV-1a alone clusters on keys that differ only in
 * their last characters (neighbouring numbers), so the murmur3 finaliser mixes it.
 *
 * @example
 * stableHash('port:447400123456') === stableHash('port:447400123456') // true
 */
export function stableHash(key: string): number {
  let h = fnv1a(key);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Draws one network from a pool, by weight, fixed per key; undefined for an empty pool.
 *
 * @example
 * pickNetwork(mobilePool('GB'), 'orig:GB:7400')?.country // 'GB'
 */
export function pickNetwork(pool: readonly WeightedNetwork[], key: string): Network | undefined {
  const total = pool.reduce((sum, w) => sum + w.weight, 0);
  if (total === 0) return undefined;
  let ticket = stableHash(key) % total;
  for (const { network, weight } of pool) {
    if (ticket < weight) return network;
    ticket -= weight;
  }
  return undefined;
}
