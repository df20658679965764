import type { JsonObject, JsonValue } from '@comms/core';

/**
 * One CSV line (RFC 4180): fields with a comma, quote or line break are quoted, quotes doubled; null
 * is an empty field. Ends with CRLF.
 *
 * @example
 * csvLine(['a', 'b,c', null]) // 'a,"b,c",\r\n'
 */
export function csvLine(values: readonly JsonValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The lines of records, in the order of `fields`. */
export function csvRows(fields: readonly string[], records: readonly JsonObject[]): string {
  let out = '';
  for (const record of records) out += csvLine(fields.map((f) => record[f] ?? null));
  return out;
}

function csvField(value: JsonValue): string {
  if (value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
