import { ApiError } from './errors';
import { httpUrl } from './schemas';

/** How long a callback URL has to answer its check. */
const CHECK_TIMEOUT_MS = 5000;

/**
 * The vendor saves a callback URL (account `moCallBackUrl`/`drCallBackUrl`, a number's
 * `moHttpUrl`) only when it is a URL that answers 200 to a GET; this makes that check.
 * Throws a validation ApiError naming the field otherwise.
 *
 * @example
 * await verifyCallbackUrl('moHttpUrl', 'https://example.com/inbound');
 */
export async function verifyCallbackUrl(field: string, url: string): Promise<void> {
  if (!httpUrl.safeParse(url).success) {
    throw new ApiError({ kind: 'validation', label: `${field} is not a valid http or https URL` });
  }
  let status: number;
  try {
    const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    status = res.status;
    await res.body?.cancel();
  } catch {
    throw new ApiError({ kind: 'validation', label: `${field} could not be reached` });
  }
  if (status !== 200) {
    throw new ApiError({
      kind: 'validation',
      label: `${field} answered ${status} to a GET; it must answer 200`,
    });
  }
}
