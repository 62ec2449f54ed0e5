// Settings of the reference: the fault spec grammar and REFERENCE_* variables, valid and invalid.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_API_KEY,
  parseFaults,
  referenceOptionsFromEnv,
  resolveReferenceOptions,
} from '../../../../src/server/reference/options';

describe('parseFaults', () => {
  it('reads the full example', () => {
    expect(parseFaults('429=0.05,529=0.05,timeout=0.01,reset=0.01,latency=20-80')).toEqual({
      p429: 0.05,
      p529: 0.05,
      timeout: 0.01,
      reset: 0.01,
      latency: [20, 80],
    });
  });

  it('reads nothing as no faults, a single latency, spaces and any order', () => {
    expect(parseFaults('')).toEqual({ p429: 0, p529: 0, timeout: 0, reset: 0, latency: null });
    expect(parseFaults(' latency = 50 , reset=1 ')).toEqual({
      p429: 0,
      p529: 0,
      timeout: 0,
      reset: 1,
      latency: [50, 50],
    });
  });

  it.each([
    ['429=2', /between 0 and 1/],
    ['429=abc', /between 0 and 1/],
    ['429', /between 0 and 1/],
    ['429=-0.1', /between 0 and 1/],
    ['503=0.1', /"503" is not a fault/],
    ['latency=80-20', /smaller to the larger/],
    ['latency=fast', /range of whole milliseconds/],
    ['429=0.1,429=0.2', /given twice/],
    ['429=0.6,529=0.6', /add up to 1.2/],
  ])('refuses %j with a clear message', (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(message);
  });
});

describe('referenceOptionsFromEnv', () => {
  it('gives the published defaults for an empty environment', () => {
    const o = referenceOptionsFromEnv({});
    expect(o).toMatchObject({
      apiKeys: [DEFAULT_API_KEY],
      rpm: 1200,
      tps: 250_000,
      maxInflight: 64,
      seed: 1,
    });
    expect(o.faults.latency).toBeNull();
  });

  it('reads every variable, comma-separated keys and empty values as unset', () => {
    const o = referenceOptionsFromEnv({
      REFERENCE_API_KEY: ' a-key , b-key ,',
      REFERENCE_RPM: '60',
      REFERENCE_TPS: '1000',
      REFERENCE_MAX_INFLIGHT: '2',
      REFERENCE_FAULTS: '429=0.5',
      REFERENCE_SEED: '42',
      REFERENCE_FAULT_RETRY_AFTER_MS: '0',
      REFERENCE_TIMEOUT_HOLD_MS: '',
    });
    expect(o).toMatchObject({
      apiKeys: ['a-key', 'b-key'],
      rpm: 60,
      tps: 1000,
      maxInflight: 2,
      seed: 42,
      faultRetryAfterMs: 0,
      timeoutHoldMs: 120_000,
    });
    expect(o.faults.p429).toBe(0.5);
  });

  it('names each bad variable', () => {
    expect(() => referenceOptionsFromEnv({ REFERENCE_RPM: 'many' })).toThrow(/REFERENCE_RPM/);
    expect(() => referenceOptionsFromEnv({ REFERENCE_TPS: '0' })).toThrow(/REFERENCE_TPS must be above 0/);
    expect(() => referenceOptionsFromEnv({ REFERENCE_MAX_INFLIGHT: '1.5' })).toThrow(
      /REFERENCE_MAX_INFLIGHT/,
    );
    expect(() => referenceOptionsFromEnv({ REFERENCE_FAULTS: '429=7' })).toThrow(/REFERENCE_FAULTS/);
  });
});

describe('resolveReferenceOptions', () => {
  it('fills defaults and keeps what is given', () => {
    expect(resolveReferenceOptions({ rpm: 5, seed: undefined })).toMatchObject({
      rpm: 5,
      seed: 1,
      tps: 250_000,
    });
  });

  it('refuses settings that cannot work', () => {
    expect(() => resolveReferenceOptions({ apiKeys: [] })).toThrow(/apiKeys/);
    expect(() => resolveReferenceOptions({ rpm: 0 })).toThrow(/rpm/);
    expect(() =>
      resolveReferenceOptions({ faults: { p429: 0.9, p529: 0.9, timeout: 0, reset: 0, latency: null } }),
    ).toThrow(/faults/);
  });
});
