import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * What a magic number makes the simulated network do. The union is open by design: later features add
 * kinds (SMS outcomes in suffixes 200-399, call outcomes in 400-599), so a consumer must treat a kind it
 * does not know as `ordinary`.
 */
export type MagicBehaviour =
  /** A normal phone: valid mobile, reachable, not ported, not roaming. */
  | { kind: 'ordinary' }
  /** Moved to another network of the same country. */
  | { kind: 'ported' }
  /** Registered in a network of `country` (alpha-2), the block's `roamsIn`. */
  | { kind: 'roaming'; country: string }
  /** Switched off or out of coverage. */
  | { kind: 'absent' }
  /** Barred by its network. */
  | { kind: 'barred' }
  /** Known to its network but cannot receive anything. */
  | { kind: 'undeliverable' }
  /** The live lookup answered nothing: only the number range's own carrier is known. */
  | { kind: 'unknown' }
  /** Well formed but not in service. */
  | { kind: 'bad_number' }
  /** The live lookup could not decide; the best guess is that the number does not exist. */
  | { kind: 'inferred_not_valid' }
  /** The live lookup failed entirely: nothing beyond the number's format and country. */
  | { kind: 'lookup_failed' }
  /** An ordinary phone whose SMS receipts arrive late (30 s). */
  | { kind: 'sms_slow' }
  /** SMS are accepted, then fail on the network (receipt `failed`). */
  | { kind: 'sms_failed' }
  /** SMS wait on the network until their time to live runs out (receipt `expired`). */
  | { kind: 'sms_expired' }
  /** SMS are refused by the carrier's spam filter (receipt `rejected`). */
  | { kind: 'sms_rejected' }
  /** The number is de-activated: submissions are refused (SMS status 33). */
  | { kind: 'sms_deactivated' };

export type MagicKind = MagicBehaviour['kind'];

/** One country's block of 1,000 magic numbers: `prefix` followed by any three digits. */
export interface MagicBlock {
  /** ISO 3166-1 alpha-2 of the numbers' country. */
  country: string;
  /** E.164 digits without '+' before the three suffix digits ('447700900'). */
  prefix: string;
  /** Country (alpha-2) whose network the `roaming` suffix is registered in: a neighbour, not the home. */
  roamsIn: string;
  /** Where the block comes from. */
  source: string;
}

/**
 * A range of suffixes (the last three digits of a block number) and what they do. `kind` is null for a
 * range reserved for a later feature; until that feature defines it, such a suffix is an ordinary phone.
 */
export interface MagicSuffixRange {
  from: number;
  to: number;
  kind: MagicKind | null;
  /** One line for the README and the sandbox docs. */
  summary: string;
}

/**
 * One block per country, chosen like a payment processor's test cards: recognisable, and where the
 * regulator has a range for fiction (drama numbers) it is that range, so a number copied from the docs
 * can never ring a real person. libphonenumber marks the GB and FR fiction ranges invalid; the directory
 * treats every block number as a valid mobile regardless.
 */
export const MAGIC_BLOCKS: readonly MagicBlock[] = [
  {
    country: 'AU',
    prefix: '61491570',
    roamsIn: 'NZ',
    source: 'holds the numbers ACMA reserves for fiction (0491 570 006, 156-159, ...)',
  },
  {
    country: 'CA',
    prefix: '14165550',
    roamsIn: 'US',
    source: 'NANP 555-01xx fiction range, widened to 555-0xxx so every suffix fits',
  },
  { country: 'DE', prefix: '491700000', roamsIn: 'AT', source: 'chosen by this project (a Telekom range)' },
  { country: 'ES', prefix: '34600000', roamsIn: 'FR', source: 'chosen by this project' },
  { country: 'FR', prefix: '33639980', roamsIn: 'ES', source: 'ARCEP fiction range 06 39 98 xx xx' },
  { country: 'GB', prefix: '447700900', roamsIn: 'FR', source: 'Ofcom drama range 07700 900xxx' },
  { country: 'IN', prefix: '919800000', roamsIn: 'AE', source: 'chosen by this project' },
  { country: 'IT', prefix: '393120000', roamsIn: 'CH', source: 'chosen by this project' },
  { country: 'NL', prefix: '31612000', roamsIn: 'BE', source: 'chosen by this project' },
  {
    country: 'US',
    prefix: '12015550',
    roamsIn: 'CA',
    source: 'NANP 555-01xx fiction range, widened to 555-0xxx so every suffix fits',
  },
];

/**
 * The suffix table, the same in every block. Suffixes not listed (110-199, 600-999) and the reserved
 * ranges behave as ordinary phones, so a whole block is also a pool of safe test numbers.
 */
export const MAGIC_SUFFIXES: readonly MagicSuffixRange[] = [
  {
    from: 0,
    to: 99,
    kind: 'ordinary',
    summary: 'ordinary phone: valid mobile, reachable, not ported, not roaming',
  },
  { from: 100, to: 100, kind: 'ported', summary: 'ported to another network of the same country' },
  {
    from: 101,
    to: 101,
    kind: 'roaming',
    summary: "roaming in a neighbour country's network (see the block)",
  },
  { from: 102, to: 102, kind: 'absent', summary: 'absent: switched off (reachable `absent`)' },
  { from: 103, to: 103, kind: 'barred', summary: 'barred (reachable `blacklisted`)' },
  { from: 104, to: 104, kind: 'undeliverable', summary: 'unreachable (reachable `undeliverable`)' },
  {
    from: 105,
    to: 105,
    kind: 'unknown',
    summary: 'live lookup unknown: ported, reachable, valid, roaming `unknown`; partial lookup',
  },
  {
    from: 106,
    to: 106,
    kind: 'bad_number',
    summary: 'not in service (valid `not_valid`, reachable `bad_number`)',
  },
  {
    from: 107,
    to: 107,
    kind: 'inferred_not_valid',
    summary: 'valid `inferred_not_valid`, reachable `unknown`; partial lookup',
  },
  { from: 108, to: 108, kind: 'lookup_failed', summary: 'lookup failed: no carrier, everything `unknown`' },
  { from: 200, to: 200, kind: 'sms_slow', summary: 'SMS delivered, receipt after 30 s' },
  { from: 201, to: 201, kind: 'sms_failed', summary: 'SMS accepted, then receipt `failed` (err-code 8)' },
  {
    from: 202,
    to: 202,
    kind: 'sms_expired',
    summary: 'SMS accepted, then receipt `expired` (err-code 2) when the ttl runs out (at most 20 s)',
  },
  { from: 203, to: 203, kind: 'sms_rejected', summary: 'SMS accepted, then receipt `rejected` (err-code 6)' },
  { from: 204, to: 204, kind: 'sms_deactivated', summary: 'SMS refused at submission: status 33' },
  {
    from: 205,
    to: 399,
    kind: null,
    summary: 'reserved: more SMS outcomes; ordinary phones until then',
  },
  {
    from: 400,
    to: 599,
    kind: null,
    summary: 'reserved: call outcomes (voice issue); ordinary phones until then',
  },
];

const blockByPrefixLength = (() => {
  const byPrefix = new Map(MAGIC_BLOCKS.map((b) => [b.prefix, b]));
  const lengths = [...new Set(MAGIC_BLOCKS.map((b) => b.prefix.length))];
  return (msisdn: string): MagicBlock | undefined => {
    for (const length of lengths) {
      if (msisdn.length === length + 3) {
        const block = byPrefix.get(msisdn.slice(0, length));
        if (block) return block;
      }
    }
    return undefined;
  };
})();

/**
 * The magic block a number (E.164 digits, no '+') belongs to, if any.
 *
 * @example
 * magicBlockOf('447700900102')?.country // 'GB'
 * magicBlockOf('447700900') // undefined (a block number has exactly three more digits)
 */
export function magicBlockOf(msisdn: string): MagicBlock | undefined {
  return /^\d+$/.test(msisdn) ? blockByPrefixLength(msisdn) : undefined;
}

/**
 * What a number does on the simulated network, or null if it is not a magic number. Every number of a
 * block is magic; suffixes without their own behaviour are `ordinary`.
 *
 * @example
 * magicBehaviour('447700900100') // { kind: 'ported' }
 * magicBehaviour('12015550101') // { kind: 'roaming', country: 'CA' }
 * magicBehaviour('447700900042') // { kind: 'ordinary' }
 * magicBehaviour('447700900250') // { kind: 'ordinary' } (reserved for SMS outcomes)
 * magicBehaviour('447400123456') // null
 */
export function magicBehaviour(msisdn: string): MagicBehaviour | null {
  const block = magicBlockOf(msisdn);
  if (!block) return null;
  const suffix = Number(msisdn.slice(-3));
  const kind = MAGIC_SUFFIXES.find((r) => suffix >= r.from && suffix <= r.to)?.kind ?? 'ordinary';
  return kind === 'roaming' ? { kind, country: block.roamsIn } : ({ kind } as MagicBehaviour);
}

/**
 * A block written the way people read numbers, suffix digits as 'x': what the README lists.
 *
 * @example
 * magicBlockPattern(MAGIC_BLOCKS.find((b) => b.country === 'GB')!) // '+44 7700 900xxx'
 * magicBlockPattern(MAGIC_BLOCKS.find((b) => b.country === 'FR')!) // '+33 6 39 98 0x xx'
 */
export function magicBlockPattern(block: MagicBlock): string {
  const formatted = parsePhoneNumberFromString(`+${block.prefix}000`)?.formatInternational() ?? '';
  const chars = [...formatted];
  let left = 3;
  for (let i = chars.length - 1; i >= 0 && left > 0; i--) {
    if (/\d/.test(chars[i]!)) {
      chars[i] = 'x';
      left--;
    }
  }
  return chars.join('');
}

/**
 * A suffix range written as in the README: '000-099', '100'.
 *
 * @example
 * magicSuffixLabel(MAGIC_SUFFIXES[0]!) // '000-099'
 */
export function magicSuffixLabel(range: MagicSuffixRange): string {
  const pad = (n: number) => String(n).padStart(3, '0');
  return range.from === range.to ? pad(range.from) : `${pad(range.from)}-${pad(range.to)}`;
}
