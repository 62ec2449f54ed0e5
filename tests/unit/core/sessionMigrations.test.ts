import { describe, expect, it } from 'vitest';
import { SESSION_SCHEMA_VERSION, SessionSchema } from '../../../src/core/session';
import { SessionRecordError, inferStateMode, migrateSession } from '../../../src/core/sessionMigrations';
import { sampleSession, v1Records } from '../../helpers/sessions';

describe('migrateSession from schema version 1', () => {
  it('keeps every field of every record', () => {
    for (const v1 of v1Records) {
      const session = migrateSession(structuredClone(v1));
      expect(session.schemaVersion).toBe(SESSION_SCHEMA_VERSION);
      expect(session.id).toBe(v1.id);
      expect(session.name).toBe(v1.name);
      expect(session.createdAt).toBe(v1.created);
      expect(session.updatedAt).toBe(v1.updated);
      expect(session.doc.stateText).toBe(v1.state);
      expect(session.doc.questionsText).toBe(v1.questions);
      expect(session.doc.targetId).toBe(v1.target);
      expect(session.doc.model).toBe(v1.model);
      expect(session.runs).toHaveLength(v1.runs.length);
      v1.runs.forEach((run, i) => {
        const migrated = session.runs[i]!;
        expect(migrated.at).toBe(run.at);
        expect(migrated.request).toEqual(run.request);
        expect(migrated.response).toEqual(run.response);
        expect(migrated.latencyMs).toBe(run.latencyMs);
        expect(migrated.error?.message).toBe(run.error);
        expect(migrated.targetId).toBe(v1.target);
      });
      expect(SessionSchema.parse(session)).toEqual(session);
    }
  });

  it('gives runs distinct ids that are the same on every migration', () => {
    const first = migrateSession(structuredClone(v1Records[0]));
    const again = migrateSession(structuredClone(v1Records[0]));
    expect(new Set(first.runs.map((r) => r.id)).size).toBe(first.runs.length);
    expect(again.runs.map((r) => r.id)).toEqual(first.runs.map((r) => r.id));
  });

  it('infers the state editor mode from the old text', () => {
    expect(migrateSession(structuredClone(v1Records[0])).doc.stateMode).toBe('json');
    expect(migrateSession(structuredClone(v1Records[1])).doc.stateMode).toBe('text');
    expect(inferStateMode('[1, 2]')).toBe('json');
    expect(inferStateMode('{ "half typed":')).toBe('json');
    expect(inferStateMode('just words')).toBe('text');
  });
});

describe('migrateSession on the current version and on things that are not sessions', () => {
  it('returns a current record unchanged', () => {
    const session = sampleSession();
    expect(migrateSession(structuredClone(session))).toEqual(session);
  });

  it.each([
    [null, /not an object/],
    [[1, 2], /not an object/],
    [{ name: 'x' }, /no valid "schemaVersion"/],
    [{ schemaVersion: '2' }, /no valid "schemaVersion"/],
    [{ schemaVersion: 99, id: 'x' }, /newer version of Evaluate Workbench \(schema version 99/],
  ])('refuses %j with a clear sentence', (raw, message) => {
    expect(() => migrateSession(raw)).toThrow(SessionRecordError);
    expect(() => migrateSession(raw)).toThrow(message);
  });

  it('names the damaged field of a v1 record', () => {
    const broken = { ...structuredClone(v1Records[0]!), runs: [{ at: 'x', request: { model: 'm' } }] };
    expect(() => migrateSession(broken)).toThrow(/schema version 1\) is damaged: runs\.0\.request/);
  });

  it('names the damaged field of a current record', () => {
    const broken = { ...sampleSession(), doc: { ...sampleSession().doc, targetId: '' } };
    expect(() => migrateSession(broken)).toThrow(/This session is damaged: doc\.targetId/);
  });
});
