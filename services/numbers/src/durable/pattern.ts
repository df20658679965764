/** The SQL condition on `msisdn` for a `pattern` and its `search_pattern` (0 starts, 1 contains, 2 ends). */
export const MSISDN_LIKE = "msisdn LIKE ? ESCAPE '\\'";

/**
 * The LIKE argument for `MSISDN_LIKE`, with LIKE's own wildcards in the pattern escaped.
 *
 * @example
 * likeArgument('4477', 0) // '4477%'
 */
export function likeArgument(pattern: string, searchPattern: 0 | 1 | 2): string {
  const escaped = pattern.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return searchPattern === 0 ? `${escaped}%` : searchPattern === 2 ? `%${escaped}` : `%${escaped}%`;
}
