import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALL_SUFFIXES, callOutcome, ORDINARY_CALL } from './calls';
import { lookupNumber } from './directory';

function outcomeOf(number: string) {
  const info = lookupNumber(number);
  if (!info.ok) throw new Error(`unparsable: ${number}`);
  return callOutcome(info);
}

describe('call outcomes on the simulated network', () => {
  it('rings ordinary numbers after 1 s and has a person answer 2 s later', () => {
    expect(outcomeOf('447400123456')).toEqual(ORDINARY_CALL);
    expect(outcomeOf('442079460000')).toEqual(ORDINARY_CALL);
    expect(outcomeOf('447700900042')).toEqual({
      behaviour: 'answer',
      ringAfterMs: 1000,
      actAfterMs: 2000,
      hangupAfterMs: null,
      detail: null,
    });
  });

  it('follows the call suffixes in every block', () => {
    expect(outcomeOf('447700900400')).toMatchObject({ behaviour: 'busy', ringAfterMs: null });
    expect(outcomeOf('12015550401')).toMatchObject({ behaviour: 'reject', detail: 'declined' });
    expect(outcomeOf('491700000402')).toMatchObject({ behaviour: 'no-answer', actAfterMs: null });
    expect(outcomeOf('33639980403')).toMatchObject({ behaviour: 'machine', actAfterMs: 2000 });
    expect(outcomeOf('447700900404')).toMatchObject({ behaviour: 'unreachable', ringAfterMs: null });
    expect(outcomeOf('447700900405')).toMatchObject({ behaviour: 'fail', detail: 'cannot_route' });
    expect(outcomeOf('447700900406')).toMatchObject({ behaviour: 'answer', hangupAfterMs: 5000 });
    expect(outcomeOf('447700900407')).toMatchObject({ behaviour: 'answer', actAfterMs: 10_000 });
    // The rest of the call range is ordinary until a later feature defines it.
    expect(outcomeOf('447700900599')).toEqual(ORDINARY_CALL);
  });

  it("carries the directory's behaviours over to calls", () => {
    expect(outcomeOf('447700900102')).toMatchObject({ behaviour: 'unreachable', detail: 'unavailable' });
    expect(outcomeOf('447700900103')).toMatchObject({ behaviour: 'reject', detail: 'restricted' });
    expect(outcomeOf('447700900104')).toMatchObject({ behaviour: 'fail', detail: 'cannot_route' });
    expect(outcomeOf('447700900106')).toMatchObject({ behaviour: 'fail', detail: 'number_out_of_service' });
  });

  it('fails calls to numbers no plan assigns', () => {
    expect(outcomeOf('449999999999')).toMatchObject({ behaviour: 'fail' });
  });
});

describe('README', () => {
  const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
  const start = readme.indexOf('## The simulated network: magic numbers');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));

  it('documents every call suffix', () => {
    for (const [suffix, { summary }] of Object.entries(CALL_SUFFIXES)) {
      const escaped = summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(section).toMatch(new RegExp(`\\|\\s*\`${suffix}\`\\s*\\|\\s*${escaped}\\s*\\|`));
    }
  });
});
