import { type Amount, parseAmount } from '@comms/core';
import { countryPricing } from '@comms/network';
import type { CountryCode, NumberType } from 'libphonenumber-js/max';
import { getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';

/** The kinds of number for rent (spec 2.2). */
export type RentalType = 'landline' | 'mobile-lvn' | 'landline-toll-free';
export type Feature = 'SMS' | 'VOICE' | 'MMS';

export const RENTAL_TYPES: readonly RentalType[] = ['mobile-lvn', 'landline', 'landline-toll-free'];

export interface InventoryNumber {
  msisdn: string;
  type: RentalType;
  features: Feature[];
  /** Monthly rental. */
  cost: Amount;
}

/** How many numbers of each type a country's pool starts with. */
const POOL_SIZE: Record<RentalType, number> = { 'mobile-lvn': 60, landline: 40, 'landline-toll-free': 15 };

/** North American plans do not tell mobiles from landlines: both are FIXED_LINE_OR_MOBILE. */
const TYPE_OF: Record<RentalType, NumberType[]> = {
  'mobile-lvn': ['MOBILE', 'FIXED_LINE_OR_MOBILE'],
  landline: ['FIXED_LINE', 'FIXED_LINE_OR_MOBILE'],
  'landline-toll-free': ['TOLL_FREE'],
};

/** North American numbers of every type take SMS; elsewhere only mobiles do. */
const NANP = new Set(['US', 'CA']);

/**
 * Countries whose numbers need a local address, which the vendor only takes through its
 * dashboard: buying one through the API answers 420.
 */
export const NEEDS_LOCAL_ADDRESS = new Set(['DE', 'FR', 'IT', 'ES', 'AT', 'BE', 'CH', 'JP', 'BR', 'ZA']);

/** The features a number of this type has in this country. */
export function featuresOf(country: string, type: RentalType): Feature[] {
  if (NANP.has(country))
    return type === 'mobile-lvn' || type === 'landline' ? ['SMS', 'VOICE', 'MMS'] : ['SMS', 'VOICE'];
  return type === 'mobile-lvn' ? ['SMS', 'VOICE'] : ['VOICE'];
}

/**
 * Monthly rental from the pricing data: a mobile number costs 25 outbound SMS at the country's
 * default SMS price, a landline 80 minutes of landline voice, a toll-free number three times a
 * landline; each rounded to cents, at least 0.50 EUR.
 */
export function monthlyCost(country: string, type: RentalType): Amount | undefined {
  const sms = countryPricing('sms', country)?.defaultPrice;
  const voice = countryPricing('voice', country);
  const landline = voice?.networks.find((n) => n.type === 'landline')?.price ?? voice?.defaultPrice;
  if (landline === undefined) return undefined;
  const raw =
    type === 'mobile-lvn' ? (sms ?? landline) * 25 : type === 'landline' ? landline * 80 : landline * 240;
  const cents = Math.max(50, Math.round(raw / 1_000_000));
  return parseAmount((cents / 100).toFixed(2));
}

/** A small seeded generator (mulberry32): the same country always gets the same pool. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The initial pool of a country: valid numbers of each rental type, found by drawing national
 * numbers of plausible lengths and keeping the ones libphonenumber's full metadata classifies as
 * that type. Deterministic per country. Countries whose plan has no such numbers get none of
 * that type.
 */
export function generatePool(country: string): InventoryNumber[] {
  const example = getExampleNumber(country as CountryCode, examples);
  if (!example) return [];
  const lengths = [
    ...new Set([
      example.nationalNumber.length - 1,
      example.nationalNumber.length,
      example.nationalNumber.length + 1,
    ]),
  ];
  const next = random(seedOf(country));
  const out: InventoryNumber[] = [];
  const seen = new Set<string>();
  for (const type of RENTAL_TYPES) {
    const cost = monthlyCost(country, type);
    if (cost === undefined) continue;
    const wanted = POOL_SIZE[type];
    let found = 0;
    // Mobile prefixes are found fastest by varying the example; other types by free draws.
    for (let attempt = 0; attempt < 40_000 && found < wanted; attempt++) {
      const length = lengths[Math.floor(next() * lengths.length)] ?? example.nationalNumber.length;
      let national = '';
      if (type === 'mobile-lvn' && attempt % 2 === 0) {
        const keep = Math.max(2, Math.floor(example.nationalNumber.length / 2));
        national = example.nationalNumber.slice(0, keep);
        while (national.length < example.nationalNumber.length) national += Math.floor(next() * 10);
      } else {
        national = String(1 + Math.floor(next() * 9));
        while (national.length < length) national += Math.floor(next() * 10);
      }
      const parsed = parsePhoneNumberFromString(national, country as CountryCode);
      if (!parsed?.isValid() || parsed.country !== country) continue;
      const numberType = parsed.getType();
      if (!numberType || !TYPE_OF[type].includes(numberType)) continue;
      const msisdn = parsed.number.slice(1);
      if (seen.has(msisdn)) continue;
      seen.add(msisdn);
      out.push({ msisdn, type, features: featuresOf(country, type), cost });
      found++;
    }
  }
  return out;
}
