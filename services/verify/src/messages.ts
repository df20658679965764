import type { Channel } from './machine';

// biome-ignore format: packed, the list is easier to compare with the spec's
/** The `lg` values of a verify request (spec 4.6). */
export const LOCALES = [
  'ar-xa', 'cs-cz', 'cy-cy', 'cy-gb', 'da-dk', 'de-de', 'el-gr', 'en-au', 'en-gb', 'en-in', 'en-us', 'es-es',
  'es-mx', 'es-us', 'fi-fi', 'fil-ph', 'fr-ca', 'fr-fr', 'hi-in', 'hu-hu', 'id-id', 'is-is', 'it-it', 'ja-jp',
  'ko-kr', 'nb-no', 'nl-nl', 'pl-pl', 'pt-br', 'pt-pt', 'ro-ro', 'ru-ru', 'sv-se', 'th-th', 'tr-tr', 'vi-vn',
  'yue-cn', 'zh-cn', 'zh-tw',
] as const;

// biome-ignore format: packed, as above
/** The `lg` values of a PSD2 request, a list of its own (reference `psd2Request`). */
export const PSD2_LOCALES = [
  'en-gb', 'bg-bg', 'cs-cz', 'da-dk', 'de-de', 'ee-et', 'el-gr', 'es-es', 'fi-fi', 'fr-fr', 'ga-ie', 'hu-hu',
  'it-it', 'lv-lv', 'lt-lt', 'mt-mt', 'nl-nl', 'pl-pl', 'sk-sk', 'sl-si', 'sv-se',
] as const;

/** The reference's defaults when a number's country has no locale of its own in the list. */
const FALLBACK = { standard: 'en-us', psd2: 'en-gb' } as const;

/**
 * Countries whose locale is not simply the list's `<language>-<country>`, or where the list has
 * several (`cy-gb` and `en-gb`): the country's main language wins.
 */
const LOCALE_OF_COUNTRY: Readonly<Record<string, string>> = {
  GB: 'en-gb',
  US: 'en-us',
  IN: 'en-in',
  AT: 'de-de',
  CH: 'de-de',
  BE: 'fr-fr',
  LU: 'fr-fr',
  IE: 'en-gb',
  NZ: 'en-au',
  CN: 'zh-cn',
  HK: 'yue-cn',
  TW: 'zh-tw',
  JP: 'ja-jp',
  KR: 'ko-kr',
  NO: 'nb-no',
  DK: 'da-dk',
  SE: 'sv-se',
  CZ: 'cs-cz',
  GR: 'el-gr',
  PH: 'fil-ph',
  VN: 'vi-vn',
  SA: 'ar-xa',
  AE: 'ar-xa',
  EG: 'ar-xa',
  BR: 'pt-br',
  AR: 'es-mx',
  CO: 'es-mx',
  CL: 'es-mx',
  PE: 'es-mx',
  CA: 'en-us',
  EE: 'ee-et',
  SI: 'sl-si',
};

/**
 * The language a request's messages use when it names none: the number's country's locale when the
 * endpoint's list has one, else the reference's default.
 *
 * @example
 * defaultLocale('DE', 'standard') // 'de-de'
 * defaultLocale('CA', 'standard') // 'en-us'
 * defaultLocale('US', 'psd2') // 'en-gb'
 */
export function defaultLocale(country: string, kind: 'standard' | 'psd2'): string {
  const list: readonly string[] = kind === 'psd2' ? PSD2_LOCALES : LOCALES;
  const candidates = [
    LOCALE_OF_COUNTRY[country],
    ...list.filter((l) => l.endsWith(`-${country.toLowerCase()}`)),
  ];
  return candidates.find((l) => l !== undefined && list.includes(l)) ?? FALLBACK[kind];
}

/** What a message says besides the code. */
export type Subject = { kind: 'standard'; brand: string } | { kind: 'psd2'; payee: string; amount: string };

interface Phrases {
  sms(subject: Subject, code: string, validity: string): string;
  voice(subject: Subject, digits: string): string;
  validity(amount: number, unit: 'minutes' | 'seconds'): string;
}

const ENGLISH: Phrases = {
  sms: (s, code, validity) =>
    s.kind === 'standard'
      ? `${s.brand} code: ${code}. Valid for ${validity}.`
      : `Code ${code} confirms your payment of EUR ${s.amount} to ${s.payee}. Valid for ${validity}.`,
  voice: (s, digits) =>
    s.kind === 'standard'
      ? `Your ${s.brand} verification code is ${digits}. Once again, your code is ${digits}.`
      : `Your code to confirm a payment of EUR ${s.amount} to ${s.payee} is ${digits}. Once again, ${digits}.`,
  validity: (n, unit) => `${n} ${unit}`,
};

const GERMAN: Phrases = {
  sms: (s, code, validity) =>
    s.kind === 'standard'
      ? `${s.brand} Code: ${code}. Gültig für ${validity}.`
      : `Code ${code} bestätigt Ihre Zahlung von EUR ${s.amount} an ${s.payee}. Gültig für ${validity}.`,
  voice: (s, digits) =>
    s.kind === 'standard'
      ? `Ihr ${s.brand} Bestätigungscode lautet ${digits}. Noch einmal: ${digits}.`
      : `Ihr Code für die Zahlung von EUR ${s.amount} an ${s.payee} lautet ${digits}. Noch einmal: ${digits}.`,
  validity: (n, unit) => `${n} ${unit === 'minutes' ? 'Minuten' : 'Sekunden'}`,
};

const FRENCH: Phrases = {
  sms: (s, code, validity) =>
    s.kind === 'standard'
      ? `${s.brand} code : ${code}. Valable ${validity}.`
      : `Le code ${code} confirme votre paiement de ${s.amount} EUR à ${s.payee}. Valable ${validity}.`,
  voice: (s, digits) =>
    s.kind === 'standard'
      ? `Votre code ${s.brand} est ${digits}. Je répète, votre code est ${digits}.`
      : `Votre code pour le paiement de ${s.amount} EUR à ${s.payee} est ${digits}. Je répète, ${digits}.`,
  validity: (n, unit) => `${n} ${unit === 'minutes' ? 'minutes' : 'secondes'}`,
};

const SPANISH: Phrases = {
  sms: (s, code, validity) =>
    s.kind === 'standard'
      ? `${s.brand} código: ${code}. Válido durante ${validity}.`
      : `El código ${code} confirma su pago de ${s.amount} EUR a ${s.payee}. Válido durante ${validity}.`,
  voice: (s, digits) =>
    s.kind === 'standard'
      ? `Su código de ${s.brand} es ${digits}. Repito, su código es ${digits}.`
      : `Su código para el pago de ${s.amount} EUR a ${s.payee} es ${digits}. Repito, ${digits}.`,
  validity: (n, unit) => `${n} ${unit === 'minutes' ? 'minutos' : 'segundos'}`,
};

/** Languages with texts of their own; every other locale gets the English text. */
const PHRASES: Readonly<Record<string, Phrases>> = { en: ENGLISH, de: GERMAN, fr: FRENCH, es: SPANISH };

/** How a code is read out on a call: one character at a time. */
function spoken(code: string): string {
  return [...code].join(', ');
}

/**
 * What the phone gets for one delivery attempt: the text of an SMS, or the words of the
 * text-to-speech call.
 *
 * @example
 * messageText('sms', { kind: 'standard', brand: 'Acme' }, '1234', 'en-gb', 300) // 'Acme code: 1234. Valid for 5 minutes.'
 * messageText('tts', { kind: 'standard', brand: 'Acme' }, '1234', 'en-gb', 300)
 * // 'Your Acme verification code is 1, 2, 3, 4. Once again, your code is 1, 2, 3, 4.'
 */
export function messageText(
  channel: Channel,
  subject: Subject,
  code: string,
  locale: string,
  validitySeconds: number,
): string {
  const phrases = PHRASES[locale.split('-')[0] ?? ''] ?? ENGLISH;
  if (channel === 'tts') return phrases.voice(subject, spoken(code));
  const validity =
    validitySeconds % 60 === 0
      ? phrases.validity(validitySeconds / 60, 'minutes')
      : phrases.validity(validitySeconds, 'seconds');
  return phrases.sms(subject, code, validity);
}
