// A refused row shows what the service said and where, not the editor's advice to fix a field and send again.
import { describe, expect, it } from 'vitest';
import { refusedRowMessage } from '../../../../src/core/rows/failure';

describe('refusedRowMessage', () => {
  it("names the service's field and sentence", () => {
    expect(
      refusedRowMessage({
        status: 422,
        fieldErrors: [{ loc: ['state', 'claim'], msg: 'Value must not be empty.' }],
        message:
          'The request failed validation (422) at state.claim: value must not be empty; fix that field and send again.',
      }),
    ).toBe('The service refused this row (422) at state.claim: Value must not be empty.');
  });

  it("falls back to the service's sentence, then to the client's", () => {
    expect(
      refusedRowMessage({ status: 413, fieldErrors: [], serviceMessage: 'Body too large.', message: 'x' }),
    ).toBe('The service refused this row (413): Body too large.');
    expect(refusedRowMessage({ status: 400, fieldErrors: [], message: 'The service answered 400.' })).toBe(
      'The service answered 400.',
    );
  });
});
