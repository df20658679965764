import { stableHash } from './operators';

/** The subscriber a caller-name (CNAM) lookup reports. */
export interface CallerIdentity {
  type: 'consumer' | 'business' | 'unknown';
  /** Full name of the person or business; 'unknown' when the type is unknown. */
  name: string;
  /** Empty unless the owner is a person. */
  firstName: string;
  /** Empty unless the owner is a person. */
  lastName: string;
}

// Common US and Canadian given names and surnames: enough variety that test output looks real, few
// enough to keep the worker small.
const FIRST_NAMES: readonly string[] = (
  'James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard ' +
  'Susan Joseph Jessica Thomas Sarah Carlos Karen Daniel Lisa Matthew Nancy Anthony Sandra Mark ' +
  'Ashley Wei Emily Steven Michelle Andrew Amanda Joshua Melissa Kevin Priya Brian Sofia'
).split(' ');

const LAST_NAMES: readonly string[] = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez ' +
  'Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris ' +
  'Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Nguyen Tremblay ' +
  'Patel Roy'
).split(' ');

const BUSINESS_KINDS: readonly string[] = (
  'Plumbing,Dental,Bakery,Logistics,Auto Repair,Consulting,Realty,Law Offices,Landscaping,' +
  'Pharmacy,Hardware,Insurance,Roofing,Veterinary Clinic,Catering,Electric,Family Medicine,' +
  'Accounting,Fitness,Florist'
).split(',');

const BUSINESS_FORMS = ['', ' LLC', ' Inc', ' & Sons', ' Co'] as const;

/** Share of ordinary NANP numbers that belong to a business, in percent. */
const BUSINESS_PERCENT = 20;

const pick = <T>(list: readonly T[], hash: number): T => list[hash % list.length]!;

/**
 * A made-up but stable owner for a number (E.164 digits): about one in five is a business, the rest
 * people. `alwaysBusiness` is for toll-free and premium numbers, which people do not own.
 *
 * @example
 * callerIdentityOf('12015550123') // { type: 'consumer', name: 'Emily Harris', firstName: 'Emily', lastName: 'Harris' } (for instance)
 * callerIdentityOf('18005550100', { alwaysBusiness: true }).type // 'business'
 */
export function callerIdentityOf(msisdn: string, options: { alwaysBusiness?: boolean } = {}): CallerIdentity {
  const lastName = pick(LAST_NAMES, stableHash(`last:${msisdn}`));
  const isBusiness = options.alwaysBusiness || stableHash(`owner:${msisdn}`) % 100 < BUSINESS_PERCENT;
  if (isBusiness) {
    const kind = pick(BUSINESS_KINDS, stableHash(`trade:${msisdn}`));
    const form = pick(BUSINESS_FORMS, stableHash(`form:${msisdn}`));
    return { type: 'business', name: `${lastName} ${kind}${form}`, firstName: '', lastName: '' };
  }
  const firstName = pick(FIRST_NAMES, stableHash(`first:${msisdn}`));
  return { type: 'consumer', name: `${firstName} ${lastName}`, firstName, lastName };
}

/** What a caller-name lookup reports when it has nothing. */
export const UNKNOWN_CALLER: CallerIdentity = Object.freeze({
  type: 'unknown',
  name: 'unknown',
  firstName: '',
  lastName: '',
});
