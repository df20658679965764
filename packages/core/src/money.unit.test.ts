import { describe, expect, it } from 'vitest';
import { amountFromNumber, amountToNumber, formatAmount, multiplyAmount, parseAmount } from './money';

describe('money', () => {
  it('parses decimal strings into integer units of 10^-8', () => {
    expect(parseAmount('0.03330000')).toBe(3_330_000);
    expect(parseAmount('10')).toBe(1_000_000_000);
    expect(parseAmount('-1.5')).toBe(-150_000_000);
    expect(parseAmount('0.00000001')).toBe(1);
  });

  it('refuses what is not a plain decimal', () => {
    for (const bad of ['1e3', '0.123456789', 'abc', '', '1.'])
      expect(() => parseAmount(bad)).toThrow(RangeError);
  });

  it('formats with 8 decimals by default and rounds when asked for fewer', () => {
    expect(formatAmount(3_330_000)).toBe('0.03330000');
    expect(formatAmount(-150_000_000)).toBe('-1.50000000');
    expect(formatAmount(3_335_000, 4)).toBe('0.0334');
    expect(formatAmount(123_456_789, 2)).toBe('1.23');
    expect(formatAmount(1_000_000_000, 0)).toBe('10');
  });

  it('sums without the float error that 0.1 + 0.2 has', () => {
    const sum = amountFromNumber(0.1) + amountFromNumber(0.2);
    expect(formatAmount(sum)).toBe('0.30000000');
    expect(amountToNumber(sum)).toBe(0.3);
  });

  it('multiplies exactly', () => {
    expect(formatAmount(multiplyAmount(parseAmount('0.0333'), 3))).toBe('0.09990000');
  });
});
