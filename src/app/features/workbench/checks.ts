// The screen's checks turned into what the editors draw: markers with quick fixes, per editor.
import type { EditorFix, EditorMarker } from '../../editor';
import { applyFix } from '../../../core/runDraft';
import type { DraftProblem } from '../../../core/runDraft';
import type { SessionDoc } from '../../../core/session';
import { sourceLabel } from '../../components/FindingItem';

/** Markers for one editor; a lint fix becomes a quick fix when all its edits are in that editor's document. */
export function markersFor(
  area: 'state' | 'questions',
  problems: readonly DraftProblem[],
  doc: SessionDoc,
): EditorMarker[] {
  const key = area === 'questions' ? 'questionsText' : 'stateText';
  return problems
    .filter((p) => p.area === area && p.span)
    .map((p) => {
      const fixes: EditorFix[] = [];
      const fix = p.fix;
      if (fix && fix.edits.every((e) => e.document === area)) {
        fixes.push({ title: fix.title, apply: (text) => applyFix({ ...doc, [key]: text }, fix)[key] });
      }
      return {
        span: p.span!,
        severity: p.severity,
        message: p.explanation ? `${p.message}\n${p.explanation}` : p.message,
        source: sourceLabel(p.source),
        ...(fixes.length ? { fixes } : {}),
      };
    });
}
