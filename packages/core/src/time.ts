/**
 * A time in the vendor's legacy format, `YYYY-MM-DD HH:MM:SS` in UTC: SMS `message-timestamp`,
 * verify search dates, a call's `start_time`/`end_time`.
 *
 * @example
 * vendorDateTime(Date.UTC(2020, 0, 1, 12)) // '2020-01-01 12:00:00'
 */
export function vendorDateTime(at: number | Date): string {
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A delivery receipt's `scts`: `YYMMDDHHMM` in UTC.
 *
 * @example
 * scts(Date.UTC(2020, 0, 1, 14)) // '2001011400'
 */
export function scts(at: number | Date): string {
  const iso = new Date(at).toISOString();
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16);
}
