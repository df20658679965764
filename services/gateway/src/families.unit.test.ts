import { describe, expect, it } from 'vitest';
import { type HostNames, matchRoute, ROUTES } from './families';

const anyHost: HostNames = { api: '', rest: '', eu: '', token: '' };
const hosts: HostNames = {
  api: 'api.example.com',
  rest: 'rest.example.com',
  eu: 'api-eu.example.com',
  token: 'token.example.com',
};

describe('the family table', () => {
  it('routes by the longest matching prefix', () => {
    expect(matchRoute('x', '/account/get-balance', anyHost)?.family).toBe('accounts');
    expect(matchRoute('x', '/account/numbers', anyHost)?.family).toBe('numbers');
    expect(matchRoute('x', '/accounts/abcd1234/secrets', anyHost)?.family).toBe('accounts');
    expect(matchRoute('x', '/v2/applications/123', anyHost)?.family).toBe('accounts');
    expect(matchRoute('x', '/sms/json', anyHost)?.family).toBe('sms');
    expect(matchRoute('x', '/v1/calls', anyHost)?.family).toBe('voice');
    expect(matchRoute('x', '/beta/meetings/rooms', anyHost)?.family).toBe('meetings');
  });

  it('matches whole path segments only', () => {
    expect(matchRoute('x', '/smsx', anyHost)).toBeUndefined();
    expect(matchRoute('x', '/accountsx/1', anyHost)).toBeUndefined();
    expect(matchRoute('x', '/', anyHost)).toBeUndefined();
  });

  it('checks hosts when they are configured', () => {
    expect(matchRoute('rest.example.com', '/sms/json', hosts)?.family).toBe('sms');
    expect(matchRoute('api.example.com', '/sms/json', hosts)).toBeUndefined();
    expect(matchRoute('API.example.com', '/v2/applications', hosts)?.family).toBe('accounts');
    expect(matchRoute('api-eu.example.com', '/v1/10dlc/brands', hosts)?.family).toBe('tendlc');
  });

  it('names a binding for every route', () => {
    for (const route of ROUTES) expect(route.binding).toMatch(/^[A-Z_]+$/);
  });
});
