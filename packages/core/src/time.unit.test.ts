import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { scts, vendorDateTime } from './time';
import { sha256Hex, webhookJwt } from './webhook-jwt';

describe('vendor time formats', () => {
  it('formats legacy date-times and receipt scts in UTC', () => {
    expect(vendorDateTime(Date.UTC(2020, 0, 1, 12, 3, 4))).toBe('2020-01-01 12:03:04');
    expect(scts(Date.UTC(2020, 0, 1, 14, 5))).toBe('2001011405');
  });
});

describe('webhook JWTs', () => {
  it('carries the payload hash, account and application, verifiable with the secret', async () => {
    const token = await webhookJwt({
      apiKey: 'abcd1234',
      applicationId: 'app-1',
      secret: 's3cret',
      body: '{"a":1}',
    });
    const { payload } = await jwtVerify(token, new TextEncoder().encode('s3cret'));
    expect(payload).toMatchObject({
      api_key: 'abcd1234',
      application_id: 'app-1',
      iss: 'Vonage',
      payload_hash: await sha256Hex('{"a":1}'),
    });
    expect(payload.jti).toBeTruthy();
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
