// Which Host and Origin values count as the workbench's own address.
import { describe, expect, it } from 'vitest';
import { allowedHostValues, checkWorkbenchHeader, HostPolicy } from '../../../../src/server/proxy/security';

describe('allowedHostValues', () => {
  it('allows the loopback spellings of a loopback bind, on its port only', () => {
    expect([...allowedHostValues({ hostnames: ['127.0.0.1'], port: 5173 })].sort()).toEqual([
      '127.0.0.1:5173',
      '[::1]:5173',
      'localhost:5173',
    ]);
  });

  it('allows a named host as configured, lower-cased, with the loopback forms only when it is loopback', () => {
    expect(
      [...allowedHostValues({ hostnames: ['Workbench.Lan', '192.168.1.20'], port: 8080 })].sort(),
    ).toEqual(['192.168.1.20:8080', 'workbench.lan:8080']);
  });

  it('allows the bare name on port 80, where browsers omit the port', () => {
    expect(allowedHostValues({ hostnames: ['localhost'], port: 80 }).has('localhost')).toBe(true);
    expect(allowedHostValues({ hostnames: ['localhost'], port: 81 }).has('localhost')).toBe(false);
  });

  it("allows the machine's own addresses for a wildcard bind, and loopback", () => {
    const allowed = allowedHostValues({ hostnames: ['0.0.0.0'], port: 5173 });
    expect(allowed.has('127.0.0.1:5173')).toBe(true);
    expect(allowed.has('localhost:5173')).toBe(true);
    expect(allowed.has('attacker.example:5173')).toBe(false);
  });
});

describe('HostPolicy', () => {
  it('refuses everything before the server listens', () => {
    expect(new HostPolicy(() => null).checkHost('127.0.0.1:5173')).not.toBeNull();
  });

  it('follows the served address as it changes (a port known only once listening)', () => {
    let port = 1000;
    const policy = new HostPolicy(() => ({ hostnames: ['127.0.0.1'], port }));
    expect(policy.checkHost('127.0.0.1:1000')).toBeNull();
    port = 2000;
    expect(policy.checkHost('127.0.0.1:1000')).not.toBeNull();
    expect(policy.checkHost('localhost:2000')).toBeNull();
  });

  it('accepts an https Origin for nothing: the workbench is served over http', () => {
    const policy = new HostPolicy(() => ({ hostnames: ['127.0.0.1'], port: 5173 }));
    expect(policy.checkOrigin('http://localhost:5173', 'same-origin')).toBeNull();
    expect(policy.checkOrigin('https://localhost:5173', undefined)).not.toBeNull();
    expect(policy.checkOrigin(undefined, 'same-site')).not.toBeNull();
    expect(policy.checkOrigin(undefined, 'none')).toBeNull();
  });
});

it('takes X-Workbench-Request: 1 and nothing else', () => {
  expect(checkWorkbenchHeader('1')).toBeNull();
  expect(checkWorkbenchHeader(undefined)?.status).toBe(403);
  expect(checkWorkbenchHeader('yes')?.status).toBe(403);
});
