/**
 * SMS encodings and segmentation (GSM 03.38): a text is sent in GSM-7 when every character is in
 * the default alphabet or its extension table (extension characters take two septets), else in
 * UCS-2. A single message holds 160 septets or 70 UCS-2 units; concatenated parts lose room to the
 * header and hold 153 or 67.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface Segmentation {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the whole text takes. */
  units: number;
  /** The text cut into the parts it is sent as, never splitting an escape pair or a surrogate pair. */
  parts: string[];
}

/** Whether every character of the text has a GSM-7 encoding. */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!basic.has(ch) && !extension.has(ch)) return false;
  return true;
}

function unitsOf(ch: string, encoding: SmsEncoding): number {
  if (encoding === 'ucs2') return ch.length;
  return extension.has(ch) ? 2 : 1;
}

/**
 * Splits a text into SMS parts.
 *
 * @example
 * segment('hello').parts.length // 1
 * segment('x'.repeat(161)).parts.length // 2 (153 + 8)
 * segment('😀'.repeat(35)).encoding // 'ucs2' (70 units: one part)
 */
export function segment(text: string, forceUcs2 = false): Segmentation {
  const encoding: SmsEncoding = !forceUcs2 && isGsm7(text) ? 'gsm7' : 'ucs2';
  const single = encoding === 'gsm7' ? 160 : 70;
  const perPart = encoding === 'gsm7' ? 153 : 67;
  let units = 0;
  for (const ch of text) units += unitsOf(ch, encoding);
  if (units <= single) return { encoding, units, parts: [text] };
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const ch of text) {
    const n = unitsOf(ch, encoding);
    if (used + n > perPart) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += ch;
    used += n;
  }
  if (current) parts.push(current);
  return { encoding, units, parts };
}

/** Parts of a binary message: `body` and `udh` are hex; each part carries at most 140 octets. */
export function binaryParts(bodyHex: string, udhHex: string): number {
  const octets = bodyHex.length / 2 + udhHex.length / 2;
  return Math.max(1, Math.ceil(octets / 140));
}
