import { SignJWT } from 'jose';

/** Lower-case hex SHA-256 of a text. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The HS256 token of a JWT-signed webhook (voice events, answer URLs): `iat`, `jti`, `iss`, the hex
 * SHA-256 `payload_hash` of the exact body sent (of the empty string when the fields travel in the
 * query), `api_key`, and `application_id` when there is one; signed with the account's signature
 * secret.
 *
 * @example
 * headers.authorization = `Bearer ${await webhookJwt({ apiKey, applicationId, secret, body })}`;
 */
export async function webhookJwt(signer: {
  apiKey: string;
  applicationId?: string | null;
  secret: string;
  body: string;
  now?: number;
}): Promise<string> {
  const claims: Record<string, string> = {
    api_key: signer.apiKey,
    payload_hash: await sha256Hex(signer.body),
  };
  if (signer.applicationId) claims['application_id'] = signer.applicationId;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(Math.floor((signer.now ?? Date.now()) / 1000))
    .setJti(crypto.randomUUID())
    .setIssuer('Vonage')
    .sign(new TextEncoder().encode(signer.secret));
}
