import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { lookupNumber, type NumberInfo } from './directory';
import {
  MAGIC_BLOCKS,
  MAGIC_SUFFIXES,
  type MagicBlock,
  magicBehaviour,
  magicBlockOf,
  magicBlockPattern,
  magicSuffixLabel,
} from './magic';
import { mobilePool } from './operators';

const numberOf = (block: MagicBlock, suffix: number) => block.prefix + String(suffix).padStart(3, '0');

function look(msisdn: string): NumberInfo {
  const result = lookupNumber(`+${msisdn}`);
  if (!result.ok) throw new Error(`${msisdn}: ${result.reason}`);
  return result;
}

describe('MAGIC_BLOCKS', () => {
  it('has one block per country, for at least the main markets', () => {
    const countries = MAGIC_BLOCKS.map((b) => b.country);
    expect(new Set(countries).size).toBe(countries.length);
    for (const c of ['GB', 'US', 'DE', 'FR', 'ES', 'IT', 'IN', 'AU', 'CA', 'NL'])
      expect(countries).toContain(c);
  });

  it('blocks do not overlap, roam abroad, and read as their country', () => {
    for (const block of MAGIC_BLOCKS) {
      for (const other of MAGIC_BLOCKS) {
        if (other !== block) expect(block.prefix.startsWith(other.prefix)).toBe(false);
      }
      expect(block.roamsIn).not.toBe(block.country);
      expect(mobilePool(block.roamsIn).length).toBeGreaterThan(1);
      expect(mobilePool(block.country).length).toBeGreaterThan(1);
      const parsed = parsePhoneNumberFromString(`+${numberOf(block, 0)}`)!;
      expect(parsed.isPossible()).toBe(true);
      expect(magicBlockPattern(block)).toMatch(/^\+\d[\d ]*x[x ]*x$/);
    }
  });

  it('uses the fiction ranges libphonenumber rejects, and valid mobile ranges elsewhere', () => {
    for (const block of MAGIC_BLOCKS) {
      const parsed = parsePhoneNumberFromString(`+${numberOf(block, 42)}`)!;
      if (block.country === 'GB' || block.country === 'FR') expect(parsed.isValid()).toBe(false);
      else {
        expect(parsed.country).toBe(block.country);
        expect(['MOBILE', 'FIXED_LINE_OR_MOBILE']).toContain(parsed.getType());
      }
    }
  });

  it('makes every block number a magic number, and only those', () => {
    const gb = MAGIC_BLOCKS.find((b) => b.country === 'GB')!;
    expect(magicBlockOf('447700900999')).toBe(gb);
    expect(magicBlockOf('44770090099')).toBeUndefined();
    expect(magicBlockOf('4477009001234')).toBeUndefined();
    expect(magicBlockOf('447700901000')).toBeUndefined();
    expect(magicBehaviour('447400123456')).toBeNull();
  });
});

describe('MAGIC_SUFFIXES', () => {
  it('are ordered, disjoint and within 000-999', () => {
    for (let i = 0; i < MAGIC_SUFFIXES.length; i++) {
      const range = MAGIC_SUFFIXES[i]!;
      expect(range.from).toBeLessThanOrEqual(range.to);
      expect(range.to).toBeLessThan(1000);
      if (i > 0) expect(range.from).toBeGreaterThan(MAGIC_SUFFIXES[i - 1]!.to);
    }
  });

  it('define SMS outcomes at 200-204, and reserve the rest of 200-399 and 400-599 for calls', () => {
    expect(MAGIC_SUFFIXES.filter((r) => r.from >= 200 && r.to <= 204).map((r) => r.kind)).toEqual([
      'sms_slow',
      'sms_failed',
      'sms_expired',
      'sms_rejected',
      'sms_deactivated',
    ]);
    expect(MAGIC_SUFFIXES.find((r) => r.from === 205)).toMatchObject({ to: 399, kind: null });
    expect(MAGIC_SUFFIXES.find((r) => r.from === 400)).toMatchObject({ to: 599, kind: null });
  });
});

describe('magic behaviours, in every block', () => {
  const cnam = (block: MagicBlock) => ['US', 'CA'].includes(block.country);

  it.each(MAGIC_BLOCKS.map((b) => [b.country, b] as const))(
    '%s: each suffix does what the table says',
    (_, block) => {
      const at = (suffix: number) => look(numberOf(block, suffix));
      const home = { status: 'not_roaming' };

      const ordinary = at(7);
      expect(ordinary).toMatchObject({
        valid: true,
        possible: true,
        lineType: 'mobile',
        ported: 'not_ported',
        reachable: 'reachable',
        validity: 'valid',
        roaming: home,
        lookupOutcome: 'success',
        magic: { kind: 'ordinary' },
        country: { code: block.country },
      });
      expect(ordinary.originalCarrier?.country).toBe(block.country);
      expect(ordinary.currentCarrier).toEqual(ordinary.originalCarrier);
      expect(ordinary.callerIdentity === null).toBe(!cnam(block));

      const ported = at(100);
      expect(ported).toMatchObject({ ported: 'ported', reachable: 'reachable', magic: { kind: 'ported' } });
      expect(ported.currentCarrier?.country).toBe(block.country);
      expect(ported.currentCarrier?.name).not.toBe(ported.originalCarrier?.name);

      const roaming = at(101);
      expect(roaming).toMatchObject({ ported: 'not_ported', reachable: 'reachable' });
      expect(roaming.magic).toEqual({ kind: 'roaming', country: block.roamsIn });
      expect(roaming.roaming.status).toBe('roaming');
      expect(roaming.roaming.countryCode).toBe(block.roamsIn);
      const visited = mobilePool(block.roamsIn).map((w) => w.network);
      expect(visited).toContainEqual(
        expect.objectContaining({
          networkCode: roaming.roaming.networkCode,
          networkName: roaming.roaming.networkName,
        }),
      );

      expect(at(102)).toMatchObject({ reachable: 'absent', validity: 'valid', roaming: home });
      expect(at(103)).toMatchObject({ reachable: 'blacklisted', validity: 'valid' });
      expect(at(104)).toMatchObject({ reachable: 'undeliverable', validity: 'valid' });

      const unknown = at(105);
      expect(unknown).toMatchObject({
        valid: true,
        lineType: 'mobile',
        currentCarrier: null,
        ported: 'unknown',
        reachable: 'unknown',
        validity: 'unknown',
        roaming: { status: 'unknown' },
        lookupOutcome: 'partial',
      });
      expect(unknown.originalCarrier).not.toBeNull();
      expect(unknown.callerIdentity?.type ?? null).toBe(cnam(block) ? 'unknown' : null);

      expect(at(106)).toMatchObject({
        valid: false,
        possible: true,
        lineType: 'unknown',
        originalCarrier: null,
        reachable: 'bad_number',
        validity: 'not_valid',
        callerIdentity: null,
        magic: { kind: 'bad_number' },
      });
      expect(at(107)).toMatchObject({
        validity: 'inferred_not_valid',
        reachable: 'unknown',
        currentCarrier: null,
        lookupOutcome: 'partial',
      });
      expect(at(108)).toMatchObject({
        originalCarrier: null,
        currentCarrier: null,
        ported: 'unknown',
        reachable: 'unknown',
        validity: 'unknown',
        lookupOutcome: 'failed',
      });
    },
  );

  it.each(MAGIC_BLOCKS.map((b) => [b.country, b] as const))(
    '%s: every other suffix is an ordinary phone',
    (_, block) => {
      const special = new Set([100, 101, 102, 103, 104, 105, 106, 107, 108]);
      for (let suffix = 0; suffix < 1000; suffix++) {
        if (special.has(suffix)) continue;
        const info = look(numberOf(block, suffix));
        // SMS outcome suffixes look up as ordinary phones; only their messages behave differently.
        expect(info.magic?.kind).toBe(suffix >= 200 && suffix <= 204 ? info.magic?.kind : 'ordinary');
        if (suffix < 200 || suffix > 204) expect(info.magic).toEqual({ kind: 'ordinary' });
        expect(info.reachable).toBe('reachable');
        expect(info.ported).toBe('not_ported');
        expect(info.roaming).toEqual({ status: 'not_roaming' });
      }
    },
  );

  it('reads national magic numbers with their country', () => {
    const viaNational = lookupNumber('07700 900102', 'GB');
    expect(viaNational.ok && viaNational.reachable).toBe('absent');
    const viaDigits = lookupNumber('447700900102', 'GB');
    expect(viaDigits.ok && viaDigits.msisdn).toBe('447700900102');
    const fr = lookupNumber('06 39 98 01 03', 'FR');
    expect(fr.ok && fr.reachable).toBe('blacklisted');
  });
});

describe('README', () => {
  const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
  const start = readme.indexOf('## The simulated network: magic numbers');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);

  it('documents every block', () => {
    expect(readme).toContain('## The simulated network: magic numbers');
    for (const block of MAGIC_BLOCKS) {
      expect(section).toMatch(
        new RegExp(`\\|\\s*${block.country}\\s*\\|\\s*\`${escapeRegExp(magicBlockPattern(block))}\``),
      );
    }
  });

  it('documents every suffix range', () => {
    for (const range of MAGIC_SUFFIXES) {
      expect(section).toMatch(new RegExp(`\\|\\s*\`${magicSuffixLabel(range)}\`\\s*\\|`));
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
