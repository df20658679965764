import { z } from 'zod';

/** `search_pattern`: 0 starts with (default), 1 contains, 2 ends with. */
export const searchPatternParam = z.coerce
  .number()
  .int()
  .refine((n) => n === 0 || n === 1 || n === 2, 'Must be 0, 1 or 2')
  .default(0)
  .transform((n) => n as 0 | 1 | 2);

/** `size` (1–100, default 10) and `index` (from 1, default 1) of the numbers lists. */
export const pagingParams = {
  size: z.coerce.number().int().min(1, 'Must be from 1 to 100').max(100, 'Must be from 1 to 100').default(10),
  index: z.coerce.number().int().min(1, 'Must be at least 1').default(1),
};

/** The first value of every parameter, as the zod schemas of these routes expect. */
export function firstValues(params: Record<string, string | string[]>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
}
