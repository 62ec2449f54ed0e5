import { describe, expect, it } from 'vitest';
import { lintRubric } from '../../../src/core/lint';
import {
  applyFix,
  blocksRun,
  checkDoc,
  draftRequest,
  duplicateProblems,
  lintProblems,
  locateInDoc,
  listedProblems,
  locatedProblems,
  mergeProblems,
} from '../../../src/core/runDraft';
import { EXAMPLE_REQUEST, exampleDoc } from '../../../src/core/example';
import type { SessionDoc } from '../../../src/core/session';

const doc = (over: Partial<SessionDoc>): SessionDoc => ({ ...exampleDoc(), ...over });

describe('draftRequest', () => {
  it('turns the example session into the contract example request', () => {
    const draft = draftRequest(exampleDoc(), ['model-latest', 'model-preview']);
    expect(draft.problems).toEqual([]);
    expect(draft.blocking).toBe(false);
    expect(draft.request).toEqual(EXAMPLE_REQUEST);
  });

  it('a state in JSON mode is sent as named fields', () => {
    const draft = draftRequest(doc({ stateMode: 'json', stateText: '{"claim": "x", "locale": null}' }));
    expect(draft.request?.state).toEqual({ claim: 'x', locale: null });
  });

  it('a syntax error blocks the run, names the line, and sends nothing', () => {
    const draft = draftRequest(doc({ questionsText: '{\n  "a": {"type": "noul"}\n  "b": 1\n}' }));
    expect(draft.blocking).toBe(true);
    expect(draft.body).toBeNull();
    expect(draft.request).toBeNull();
    expect(draft.problems[0]).toMatchObject({
      area: 'questions',
      source: 'syntax',
      span: { start: { line: 3 } },
    });
    expect(draft.syntax.questions).toMatch(/line 3/);
    expect(draft.syntax.state).toBeNull();
  });

  it('a contract error is located on its line and blocks, but the body stays sendable', () => {
    const questionsText = '{\n  "ok": {"type": "noul"},\n  "bad": {\n    "type": "boolean"\n  }\n}';
    const draft = draftRequest(doc({ questionsText }));
    expect(draft.blocking).toBe(true);
    expect(draft.request).toBeNull();
    expect(draft.body).not.toBeNull();
    const problem = draft.problems.find((p) => p.source === 'contract')!;
    expect(problem.loc.slice(0, 2)).toEqual(['questions', 'bad']);
    expect(problem.message).toMatch(/noul/);
    expect(problem.span?.start.line).toBeGreaterThanOrEqual(3);
  });

  it('a product-line model id is an error on the picker', () => {
    const draft = draftRequest(doc({ model: 'model-1.13' }), ['model-latest']);
    expect(draft.blocking).toBe(true);
    expect(draft.problems).toEqual([expect.objectContaining({ area: 'model', loc: ['model'] })]);
    expect(draft.problems[0]!.message).toMatch(/product line/);
    expect(draft.problems[0]!.span).toBeUndefined();
    expect(draftRequest(doc({ model: 'model-1.13.0' })).blocking).toBe(false);
  });

  it('plain text in JSON mode is one problem, not one per word (the sentence counts the echoes)', () => {
    const draft = draftRequest(doc({ stateMode: 'json', stateText: 'Help! My payouts have been failing.' }));
    expect(draft.problems).toHaveLength(1);
    expect(draft.problems[0]).toMatchObject({ area: 'state', source: 'syntax' });
    expect(draft.syntax.state).toMatch(/more problems after it/);
  });

  it('an empty JSON state says to write an object or switch to text', () => {
    const draft = draftRequest(doc({ stateMode: 'json', stateText: '' }));
    expect(draft.problems[0]!.message).toMatch(/switch to plain text/);
    expect(draft.syntax.state).toMatch(/empty/);
  });
});

describe('locating service errors', () => {
  it('puts a 422 loc on the right editor and line', () => {
    const d = exampleDoc();
    const [q] = locatedProblems(
      d,
      [{ loc: ['questions', 'frustration', 'criteria', 1], msg: 'bad level' }],
      'service',
    );
    expect(q).toMatchObject({ area: 'questions', source: 'service', message: 'bad level' });
    expect(d.questionsText.split('\n')[q!.span!.start.line - 1]).toContain('Frustrated but civil');
    expect(locateInDoc(d, ['state'])).toMatchObject({
      area: 'state',
      span: { start: { line: 1, column: 1 } },
    });
    expect(locateInDoc(d, ['model'])).toEqual({ area: 'model' });
  });
});

describe('lint, duplicates and merging', () => {
  const boolText = '{\n  "urgent": {\n    "type": "boolean",\n    "instructions": "Is it urgent?"\n  }\n}';

  it('a lint error replaces the contract error on the same place and brings its fix', () => {
    const d = doc({ questionsText: boolText });
    const draft = draftRequest(d);
    const findings = lintRubric({
      state: d.stateText,
      questions: JSON.parse(boolText),
      model: d.model,
      mode: 'single',
    });
    const merged = mergeProblems(draft, lintProblems(d, findings));
    const typeProblems = merged.filter((p) => p.loc[1] === 'urgent' && p.severity === 'error');
    expect(typeProblems).toHaveLength(1);
    expect(typeProblems[0]!.source).toBe('contract/boolean-type');
    expect(typeProblems[0]!.span?.start.line).toBe(3);
    expect(merged.some(blocksRun)).toBe(true);
    const fixed = applyFix(d, typeProblems[0]!.fix!);
    expect(fixed.questionsText).toBe(boolText.replace('"boolean"', '"noul"'));
    expect(draftRequest(fixed).blocking).toBe(false);
  });

  it('flags the dropped copy of a duplicate question name, pointing at the one that is sent', () => {
    const questionsText = '{\n  "a": {"type": "noul"},\n  "b": {"type": "noul"},\n  "a": {"type": "noul"}\n}';
    const problems = duplicateProblems(doc({ questionsText }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: 'error', area: 'questions', span: { start: { line: 2 } } });
    expect(problems[0]!.message).toMatch(/Duplicate question name "a".*line 4/);
  });

  it('flags duplicate labels inside a choice', () => {
    const questionsText = '{"q": {"type": "choice", "criteria": {"x": null, "x": "again", "y": null}}}';
    expect(duplicateProblems(doc({ questionsText }))[0]!.message).toMatch(/Duplicate label "x"/);
  });

  it("the service's own errors are shown but do not block the next run", () => {
    const [p] = locatedProblems(exampleDoc(), [{ loc: ['questions', 'x'], msg: 'm' }], 'service');
    expect(blocksRun(p!)).toBe(false);
  });
});

describe('checkDoc', () => {
  it('the example passes every check', () => {
    const checked = checkDoc(exampleDoc(), ['model-latest', 'model-preview']);
    expect(checked.blocked).toBe(false);
    expect(checked.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });

  it('a warning does not block; an error does; a service error marks its line but neither blocks nor is listed', () => {
    const numericLevels = doc({
      questionsText: '{"q": {"type": "score", "instructions": "How good?", "criteria": ["1", "2", "3"]}}',
    });
    const warned = checkDoc(numericLevels);
    expect(warned.problems.some((p) => p.severity === 'warning')).toBe(true);
    expect(warned.blocked).toBe(false);
    const service = checkDoc(exampleDoc(), [], [{ loc: ['questions', 'is_urgent', 'type'], msg: 'no' }]);
    expect(service.problems).toContainEqual(
      expect.objectContaining({ source: 'service', area: 'questions' }),
    );
    expect(service.blocked).toBe(false);
    // The answers say the 422 and its line is marked; the list under the editors keeps the workbench's own findings.
    expect(listedProblems(service.problems).some((p) => p.source === 'service')).toBe(false);
    expect(listedProblems(service.problems)).toHaveLength(service.problems.length - 1);
    expect(
      checkDoc(doc({ questionsText: '{"q": {"type": "choice", "criteria": {"only": null}}}' })).blocked,
    ).toBe(true);
  });
});
