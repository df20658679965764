import { describe, expect, it } from 'vitest';
import { binaryParts, isGsm7, segment } from './encoding';

describe('SMS segmentation', () => {
  it('keeps GSM-7 texts up to 160 septets in one part and cuts longer ones at 153', () => {
    expect(segment('a'.repeat(160)).parts).toHaveLength(1);
    const long = segment('a'.repeat(400));
    expect(long.encoding).toBe('gsm7');
    expect(long.parts.map((p) => p.length)).toEqual([153, 153, 94]);
  });

  it('counts extension characters as two septets and never splits them', () => {
    expect(segment('€'.repeat(80)).units).toBe(160);
    expect(segment('€'.repeat(80)).parts).toHaveLength(1);
    const s = segment(`${'a'.repeat(152)}€${'b'.repeat(10)}`);
    expect(s.parts).toEqual(['a'.repeat(152), `€${'b'.repeat(10)}`]);
  });

  it('switches to UCS-2 for other characters: 70 units single, 67 per part', () => {
    expect(isGsm7('Grüße ✓')).toBe(false);
    expect(segment('ж'.repeat(70)).parts).toHaveLength(1);
    expect(segment('ж'.repeat(71)).parts.map((p) => p.length)).toEqual([67, 4]);
  });

  it('never splits a surrogate pair', () => {
    const s = segment('😀'.repeat(40));
    expect(s.units).toBe(80);
    expect(s.parts).toHaveLength(2);
    for (const p of s.parts) expect(p.length % 2).toBe(0);
  });

  it('counts binary octets in 140-octet parts', () => {
    expect(binaryParts('00'.repeat(100), '050003CC0201')).toBe(1);
    expect(binaryParts('00'.repeat(200), '')).toBe(2);
  });
});
