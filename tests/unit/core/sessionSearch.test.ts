import { describe, expect, it } from 'vitest';
import { matchPlace, matchesSession, queryTerms } from '../../../src/core/sessionSearch';
import { sampleSession } from '../../helpers/sessions';

describe('session search', () => {
  const session = sampleSession({ name: 'Café triage' });
  it('matches names and content, every word, ignoring case and accents', () => {
    expect(matchesSession(session, queryTerms('cafe'))).toBe(true);
    expect(matchesSession(session, queryTerms('PAYOUTS frustrated'))).toBe(true);
    expect(matchesSession(session, queryTerms('payouts nowhere'))).toBe(false);
    expect(matchesSession(session, queryTerms('model-latest'))).toBe(true);
    expect(matchesSession(session, queryTerms('   '))).toBe(true);
  });
  it('says where it matched', () => {
    expect(matchPlace(session, queryTerms('triage'))).toBe('name');
    expect(matchPlace(session, queryTerms('urgency'))).toBe('content');
  });
});
