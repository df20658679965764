import { z } from 'zod';

/** An MSISDN in E.164 without `+`: 7 to 15 digits. */
export const msisdn = z.string().regex(/^[1-9]\d{6,14}$/, 'Must be an E.164 number of 7 to 15 digits');

/** An ISO 3166-1 alpha-2 country code, upper-case. */
export const countryAlpha2 = z
  .string()
  .length(2, 'Must be exactly 2 characters')
  .regex(/^[A-Za-z]{2}$/, 'Must be an ISO 3166-1 alpha-2 country code')
  .transform((s) => s.toUpperCase());

/** An absolute http(s) URL. */
export const httpUrl = z
  .string()
  .max(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Must be an absolute http or https URL');

/** A boolean as a form or query would send it ("true", "1"), or as JSON. */
export const formBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((s) => s === 'true' || s === '1'),
]);

/** A positive integer given as a string or number. */
export const intString = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** HAL-style page parameters of the v2 JSON APIs. */
export const paging = z.object({
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  page: z.coerce.number().int().min(1).default(1),
});
