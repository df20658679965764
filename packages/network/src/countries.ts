import codes from 'i18n-iso-countries/codes.json';
import en from 'i18n-iso-countries/langs/en.json';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';

/** A country or territory reachable by phone. */
export interface Country {
  /** ISO 3166-1 alpha-2, upper case ('GB'). */
  code: string;
  /** ISO 3166-1 alpha-3 ('GBR'). */
  alpha3: string;
  /** English official short name ('United States of America'). */
  name: string;
  /** English common name ('United States'); equals `name` when there is no better one. */
  displayName: string;
  /** International calling code without '+' ('1', '44'). */
  dialingPrefix: string;
}

/**
 * libphonenumber knows two territories that ISO 3166-1 lacks (they use exceptionally reserved codes),
 * so i18n-iso-countries has no entry for them.
 */
const NON_ISO: Readonly<Record<string, { alpha3: string; name: string }>> = {
  AC: { alpha3: 'ASC', name: 'Ascension Island' },
  TA: { alpha3: 'TAA', name: 'Tristan da Cunha' },
};

// The package's data files are read directly instead of through its `registerLocale`/`getName` API: the
// package entry is CommonJS (and under Node resolution loads every locale), while two JSON files bundle
// cleanly with esbuild, need no interop and keep only English names in the worker.
const enNames = (en as { countries: Record<string, string | string[]> }).countries;
const alpha3ByCode = new Map((codes as string[][]).map((row) => [row[0]!, row[1]!]));

interface CountryTable {
  list: readonly Country[];
  byCode: ReadonlyMap<string, Country>;
  byPrefix: ReadonlyMap<string, readonly Country[]>;
}

let table: CountryTable | undefined;

/** Built on first use, not at import, so a worker that never prices anything does not pay for it. */
function countryTable(): CountryTable {
  if (table) return table;
  const aliasUse = countAliases();
  const list = getCountries()
    .map((code) => makeCountry(code, getCountryCallingCode(code), aliasUse))
    .sort((a, b) => a.code.localeCompare(b.code));
  const byPrefix = new Map<string, Country[]>();
  for (const country of list) {
    const group = byPrefix.get(country.dialingPrefix);
    if (group) group.push(country);
    else byPrefix.set(country.dialingPrefix, [country]);
  }
  table = { list, byCode: new Map(list.map((c) => [c.code, c])), byPrefix };
  return table;
}

function makeCountry(code: string, dialingPrefix: string, aliasUse: ReadonlyMap<string, number>): Country {
  const names = enNames[code];
  if (names === undefined) {
    const extra = NON_ISO[code];
    // A libphonenumber upgrade could add a region neither table knows; keep it usable rather than throw.
    const name = extra?.name ?? code;
    return { code, alpha3: extra?.alpha3 ?? '', name, displayName: name, dialingPrefix };
  }
  const [official, alias] = typeof names === 'string' ? [names, undefined] : [names[0]!, names[1]];
  return {
    code,
    alpha3: alpha3ByCode.get(code) ?? '',
    name: official,
    displayName: alias !== undefined && isDisplayable(alias, official, aliasUse) ? alias : official,
    dialingPrefix,
  };
}

/**
 * i18n's alias (second name) is usually the common name ('United States', 'Russia', 'Czechia'), but
 * some aliases are abbreviations ('UK', 'UAE'), inverted index forms ('Korea, Republic of') or shared by
 * two countries ('Congo'); those would be worse than the official name in a list shown to people.
 */
function isDisplayable(alias: string, official: string, aliasUse: ReadonlyMap<string, number>): boolean {
  if (!/[a-z]/.test(alias) || alias.includes(',') || aliasUse.get(alias) !== 1) return false;
  // 'Aland Islands' and 'The Netherlands' only drop accents or add an article: no better than official.
  return plain(alias) !== plain(official);
}

function plain(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').replace(/^the /i, '');
}

function countAliases(): Map<string, number> {
  const use = new Map<string, number>();
  for (const names of Object.values(enNames)) {
    if (typeof names === 'string') continue;
    for (const name of names) use.set(name, (use.get(name) ?? 0) + 1);
  }
  return use;
}

/**
 * Every country or territory with a calling code (245 with the bundled libphonenumber metadata),
 * sorted by alpha-2 code.
 *
 * @example
 * countries().find((c) => c.code === 'GB')?.dialingPrefix // '44'
 */
export function countries(): readonly Country[] {
  return countryTable().list;
}

/**
 * The country with this alpha-2 code, in any case; undefined if unknown.
 *
 * @example
 * countryByCode('gb')?.name // 'United Kingdom'
 * countryByCode('ZZ') // undefined
 */
export function countryByCode(code: string): Country | undefined {
  return countryTable().byCode.get(code.trim().toUpperCase());
}

/**
 * Countries whose calling code matches a dialing prefix. A leading '+' or '00' and spaces are ignored.
 * If a calling code equals the prefix, its countries are returned; otherwise the prefix is read as the
 * start of a number and the countries of the longest calling code it begins with are returned
 * ('4479' -> calling code '44'). Calling codes are prefix-free, so at most one matches. A prefix shorter
 * than every calling code it could start ('3') matches nothing.
 *
 * @example
 * countriesByDialingPrefix('1').map((c) => c.code) // ['AG', 'AI', ..., 'CA', ..., 'US', ...]
 * countriesByDialingPrefix('+4479').map((c) => c.code) // ['GB', 'GG', 'IM', 'JE']
 */
export function countriesByDialingPrefix(prefix: string): readonly Country[] {
  const digits = normalizePrefix(prefix);
  if (digits === undefined) return [];
  const { byPrefix } = countryTable();
  // Calling codes have at most three digits, so only the first three lengths need checking.
  for (let length = Math.min(digits.length, 3); length > 0; length--) {
    const group = byPrefix.get(digits.slice(0, length));
    if (group) return group;
  }
  return [];
}

function normalizePrefix(prefix: string): string | undefined {
  const compact = prefix.replace(/\s+/g, '');
  const digits = compact.startsWith('+') ? compact.slice(1) : compact.replace(/^00/, '');
  return /^\d+$/.test(digits) ? digits : undefined;
}
