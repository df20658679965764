import { numbers } from './objects';

/**
 * `random_from_number` (create body) and `randomFromNumber` (`connect`): one of the numbers with the
 * VOICE feature that the account links to the application, picked at random; null when it has none.
 */
export async function randomApplicationNumber(
  env: Env,
  apiKey: string,
  applicationId: string | undefined,
): Promise<string | null> {
  if (!applicationId) return null;
  const voice = (await numbers(env).numbersOfApplication(apiKey, applicationId)).filter((n) =>
    n.features.includes('VOICE'),
  );
  if (voice.length === 0) return null;
  return voice[crypto.getRandomValues(new Uint32Array(1))[0]! % voice.length]!.msisdn;
}
