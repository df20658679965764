import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { decodeProtectedHeader, importSPKI, errors as joseErrors, jwtVerify } from 'jose';
import { ApiError, ERROR_TYPES } from './errors';
import { type Params, param, readParams } from './params';
import { type SignatureMethod, verifySignature } from './signature';

/** The ways a route may accept credentials (spec section 5). */
export type AuthMode =
  /** `api_key` + `api_secret` as query, form or JSON parameters, or `Authorization: Basic`. */
  | 'key-secret'
  /** `api_key` + `sig` + `timestamp` parameters signed with the signature secret. */
  | 'signature'
  /** `Authorization: Basic` only. */
  | 'basic'
  /** `Authorization: Bearer <JWT>` signed RS256 by an application's private key. */
  | 'jwt';

/** Why authentication failed; each family maps these to its own code. */
export type AuthFailure =
  | 'missing'
  | 'invalid-credentials'
  | 'invalid-signature'
  | 'signature-and-secret'
  | 'multiple-schemes'
  | 'scheme-not-allowed'
  | 'invalid-token'
  | 'expired-token'
  | 'unknown-application'
  | 'forbidden-path';

export class AuthError extends ApiError {
  readonly reason: AuthFailure;
  constructor(reason: AuthFailure, detail: string) {
    super({ kind: 'unauthorized', detail, type: ERROR_TYPES.unauthorized });
    this.reason = reason;
  }
}

/** Who a request acts for. */
export interface AccountIdentity {
  apiKey: string;
  /** The primary account's key when this one is a secondary (sub-)account. */
  primaryApiKey: string | null;
}

export interface AuthContext extends AccountIdentity {
  method: 'key-secret' | 'basic' | 'signature' | 'jwt';
  applicationId?: string;
  /** JWT without `sub`: an application (admin) token rather than a user's. */
  admin?: boolean;
  sub?: string;
  claims?: Record<string, unknown>;
}

/** What authentication needs to know about accounts and applications; accounts implements it. */
export interface CredentialStore {
  verifySecret(apiKey: string, secret: string): Promise<AccountIdentity | null>;
  signatureSettings(
    apiKey: string,
  ): Promise<{ identity: AccountIdentity; secret: string; method: SignatureMethod } | null>;
  /** The application's public key (PEM) and the account that owns it. */
  applicationKey(
    applicationId: string,
  ): Promise<{ publicKey: string; apiKey: string; primaryApiKey: string | null } | null>;
}

export interface AuthOptions {
  modes: AuthMode[];
  store: (c: Context) => CredentialStore;
  /** Whether the route's parameters may come from a JSON body (default true). */
  jsonParams?: boolean;
  /** A JWT without `exp` is refused once it is older than this (seconds). */
  maxTokenAgeSeconds?: number;
}

type Presented = 'basic' | 'bearer' | 'secret' | 'sig';

function presentedSchemes(c: Context, params: Params): Presented[] {
  const out: Presented[] = [];
  const header = c.req.header('authorization') ?? '';
  if (/^basic\s/i.test(header)) out.push('basic');
  else if (/^bearer\s/i.test(header)) out.push('bearer');
  if (param(params, 'api_secret') !== undefined) out.push('secret');
  if (param(params, 'sig') !== undefined) out.push('sig');
  return out;
}

const UTF8 = new TextDecoder();

function decodeBasic(header: string): { key: string; secret: string } | null {
  const encoded = header.replace(/^basic\s+/i, '').trim();
  let decoded: string;
  try {
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    decoded = UTF8.decode(bytes);
  } catch {
    return null;
  }
  const i = decoded.indexOf(':');
  if (i <= 0) return null;
  return { key: decoded.slice(0, i), secret: decoded.slice(i + 1) };
}

/**
 * Authenticates a request by the modes its route declares and stores the result as `c.var.auth`.
 * A request presenting two credentials (Basic and a secret parameter, a secret and a signature,
 * two headers' worth) is refused rather than guessed at.
 *
 * @example
 * app.get('/account/get-balance', authenticate({ modes: ['key-secret', 'signature'], store }), handler)
 */
export function authenticate(options: AuthOptions) {
  const modes = new Set(options.modes);
  return createMiddleware(async (c, next) => {
    const needsParams = modes.has('key-secret') || modes.has('signature');
    const params = needsParams ? await readParams(c, { json: options.jsonParams }) : {};
    const presented = presentedSchemes(c, params);
    if (presented.includes('sig') && presented.includes('secret')) {
      throw new AuthError('signature-and-secret', 'A signed request may not also present an api_secret');
    }
    if (presented.length > 1) {
      throw new AuthError('multiple-schemes', 'Use exactly one authentication scheme per request');
    }
    const store = options.store(c);
    const scheme = presented[0];
    let auth: AuthContext;
    if (scheme === 'basic' && (modes.has('basic') || modes.has('key-secret'))) {
      const creds = decodeBasic(c.req.header('authorization') ?? '');
      if (!creds) {
        throw new AuthError(
          'invalid-credentials',
          'Invalid credentials format. Expected: "Authorization: Basic (Base64(UTF-8(apiKey:secret)))"',
        );
      }
      const identity = await store.verifySecret(creds.key, creds.secret);
      if (!identity)
        throw new AuthError('invalid-credentials', 'The API key and secret supplied are not valid');
      auth = { ...identity, method: 'basic' };
    } else if (scheme === 'secret' && modes.has('key-secret')) {
      const key = param(params, 'api_key');
      const secret = param(params, 'api_secret') ?? '';
      if (!key) throw new AuthError('missing', 'api_key is required');
      const identity = await store.verifySecret(key, secret);
      if (!identity)
        throw new AuthError('invalid-credentials', 'The API key and secret supplied are not valid');
      auth = { ...identity, method: 'key-secret' };
    } else if (scheme === 'sig' && modes.has('signature')) {
      const key = param(params, 'api_key');
      if (!key) throw new AuthError('missing', 'api_key is required');
      const settings = await store.signatureSettings(key);
      if (!settings) throw new AuthError('invalid-credentials', 'The API key supplied is not valid');
      const check = verifySignature(params, settings.secret, settings.method);
      if (check !== 'ok') {
        throw new AuthError(
          'invalid-signature',
          check === 'bad-timestamp'
            ? 'The timestamp of the signed request is missing or outside the allowed window'
            : 'The signature supplied could not be verified',
        );
      }
      auth = { ...settings.identity, method: 'signature' };
    } else if (scheme === 'bearer' && modes.has('jwt')) {
      auth = await verifyJwt(c, store, options.maxTokenAgeSeconds ?? 86_400);
    } else if (scheme === undefined) {
      throw new AuthError('missing', 'No credentials were supplied');
    } else {
      throw new AuthError(
        'scheme-not-allowed',
        `This endpoint does not accept ${schemeName(scheme)} authentication`,
      );
    }
    c.set('auth', auth);
    await next();
  });
}

function schemeName(p: Presented): string {
  return { basic: 'Basic', bearer: 'Bearer token', secret: 'api_secret', sig: 'signature' }[p];
}

async function verifyJwt(c: Context, store: CredentialStore, maxAge: number): Promise<AuthContext> {
  const token = (c.req.header('authorization') ?? '').replace(/^bearer\s+/i, '').trim();
  let applicationId: unknown;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'RS256') throw new AuthError('invalid-token', 'The token must be signed with RS256');
    const [, payload] = token.split('.');
    applicationId = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload ?? ''))).application_id;
  } catch (err) {
    if (err instanceof AuthError) throw err;
    throw new AuthError('invalid-token', 'The token could not be decoded');
  }
  if (typeof applicationId !== 'string' || applicationId === '') {
    throw new AuthError('invalid-token', 'The token has no application_id claim');
  }
  const app = await store.applicationKey(applicationId);
  if (!app) throw new AuthError('unknown-application', `Application '${applicationId}' does not exist`);
  let claims: Record<string, unknown>;
  try {
    const key = await importSPKI(app.publicKey, 'RS256');
    const result = await jwtVerify(token, key, { algorithms: ['RS256'], requiredClaims: ['iat', 'jti'] });
    claims = result.payload as Record<string, unknown>;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new AuthError('expired-token', 'The token has expired');
    throw new AuthError('invalid-token', 'The token signature or claims are not valid');
  }
  const now = Math.floor(Date.now() / 1000);
  if (claims['exp'] === undefined && typeof claims['iat'] === 'number' && now - claims['iat'] > maxAge) {
    throw new AuthError('expired-token', 'The token has expired');
  }
  if (typeof claims['iat'] === 'number' && claims['iat'] > now + 300) {
    throw new AuthError('invalid-token', 'The token was issued in the future');
  }
  if (claims['acl'] !== undefined && !aclAllows(claims['acl'], new URL(c.req.url).pathname)) {
    throw new AuthError('forbidden-path', 'The token does not grant access to this path');
  }
  const sub = typeof claims['sub'] === 'string' ? claims['sub'] : undefined;
  return {
    apiKey: app.apiKey,
    primaryApiKey: app.primaryApiKey,
    method: 'jwt',
    applicationId,
    admin: sub === undefined,
    ...(sub !== undefined ? { sub } : {}),
    claims,
  };
}

function base64UrlDecode(s: string): Uint8Array {
  const b64 = s
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(s.length / 4) * 4, '=');
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

/**
 * The JWT `acl` claim: `{ paths: { "/v1/calls/**": {}, ... } }`. A `*` matches one path segment,
 * and `**` any number of them.
 */
export function aclAllows(acl: unknown, path: string): boolean {
  const paths = (acl as { paths?: unknown })?.paths;
  if (!paths || typeof paths !== 'object') return false;
  return Object.keys(paths).some((pattern) => globToRegExp(pattern).test(path));
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${escaped}/?$`);
}

/** The authenticated identity of the request (set by `authenticate`). */
export function authOf(c: Context): AuthContext {
  const auth = c.get('auth') as AuthContext | undefined;
  if (!auth) throw new AuthError('missing', 'No credentials were supplied');
  return auth;
}
