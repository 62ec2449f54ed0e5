// The app shell: top bar, the targets banner, and the main area where the workbench screen renders.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ResumeNotice } from './features/rows/ResumeNotice';
import { SessionsSidebar } from './features/sessions/SessionsSidebar';
import { LocalOnlyBanner } from './features/shell/LocalOnlyBanner';
import { useAppliedTheme } from './features/shell/theme';
import { SkippedTargetsNote } from './features/shell/SkippedTargetsNote';
import { TargetsBanner } from './features/shell/TargetsBanner';
import { TopBar } from './features/shell/TopBar';
import { pickTarget, targetsQueryOptions } from './queries/targets';
import { useResumeOffer } from './stores/resumeOffer';
import { useSessions } from './stores/sessions';
import { useScreen } from './stores/screen';
import type { Screen } from './stores/screen';
import { chooseTarget, useChosenTargetId } from './stores/target';

// The workbench screen (editors, checks, answers, resizable panes) loads beside the session restore it waits for, so the
// shell paints first with only what it shows; its import starts as the app mounts, not on first use.
const loadWorkbenchScreen = () => import('./screens/WorkbenchScreen');
const WorkbenchScreen = lazy(() => loadWorkbenchScreen().then((m) => ({ default: m.WorkbenchScreen })));
// The rows screen (parser worker, virtualised table, charts) loads on first use, outside the first chunk.
const RowsScreen = lazy(() => import('./features/rows/RowsScreen').then((m) => ({ default: m.RowsScreen })));
// The large-taxonomy screen too: most sessions never need it.
const TaxonomyScreen = lazy(() =>
  import('./features/taxonomy/TaxonomyScreen').then((m) => ({ default: m.TaxonomyScreen })),
);
// The alignment screen (figures against human labels, labelling, variants) too; its figures compute in a worker.
const AlignmentScreen = lazy(() =>
  import('./features/alignment/AlignmentScreen').then((m) => ({ default: m.AlignmentScreen })),
);
/** How long start-up may take to restore the last session before the screens show anyway (storage may hang). */
const RESTORE_WAIT_MS = 5_000;

/** True once the last session is in the workbench: typing before that would be overwritten by the restore. */
function useRestored(): boolean {
  const restored = useSessions((s) => s.restored);
  const [waitedOut, setWaitedOut] = useState(false);
  useEffect(() => {
    if (restored) return;
    const timer = setTimeout(() => setWaitedOut(true), RESTORE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [restored]);
  return restored || waitedOut;
}
const SCREEN_NAMES: Record<Screen, string> = {
  workbench: 'One state',
  rows: 'Rows from a file',
  alignment: 'Alignment with labels',
  taxonomy: 'Large taxonomy',
};

/** What a screen shows while its code loads: a status line, announced, so the wait has words. */
function ScreenLoading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" data-testid="app.screenLoading">
      Loading the {what}…
    </p>
  );
}

/** The whole app. The main area takes the selected target; screens mount there. */
export function App() {
  const targets = useQuery(targetsQueryOptions());
  const chosenId = useChosenTargetId();
  const target = targets.data ? pickTarget(targets.data, chosenId) : undefined;
  const screen = useScreen((s) => s.screen);
  const setScreen = useScreen((s) => s.setScreen);
  const restored = useRestored();
  useAppliedTheme();
  // A run of rows the last page left going is offered where the user is (issue 15): never resumed by itself.
  useEffect(() => {
    void useResumeOffer.getState().check();
    // The early fetch only warms the cache: the lazy screen imports again when it renders, and a failure surfaces there.
    loadWorkbenchScreen().catch(() => undefined);
  }, []);
  return (
    <div className="app">
      <TopBar targets={targets} selected={target} onSelectTarget={chooseTarget} />
      {/* The notes share one grid area, stacked: each is one line until opened. */}
      <div className="app-notes">
        {targets.data && targets.data.every((t) => t.kind === 'local') && (
          <LocalOnlyBanner modelFile={targets.data.find((t) => t.kind === 'local')?.modelFile} />
        )}
        {targets.data && <TargetsBanner targets={targets.data} />}
        <SkippedTargetsNote />
      </div>
      <div className="app-body">
        <SessionsSidebar />
        <main className="app-main" data-testid="app.main">
          <nav className="app-screens" aria-label="Screens">
            {(['workbench', 'rows', 'alignment', 'taxonomy'] as const).map((s) => (
              <button
                key={s}
                type="button"
                aria-pressed={screen === s}
                onClick={() => setScreen(s)}
                data-testid={`app.nav.${s}`}
              >
                {SCREEN_NAMES[s]}
              </button>
            ))}
          </nav>
          {!restored && (
            <p className="muted" role="status" data-testid="app.restoring">
              Opening your last session…
            </p>
          )}
          {screen !== 'rows' && <ResumeNotice onOpen={() => setScreen('rows')} />}
          {target &&
            restored &&
            (screen === 'rows' ? (
              <Suspense fallback={<ScreenLoading what="rows screen" />}>
                <RowsScreen targetId={target.id} targetLabel={target.label} target={target} />
              </Suspense>
            ) : screen === 'alignment' ? (
              <Suspense fallback={<ScreenLoading what="alignment screen" />}>
                <AlignmentScreen
                  targetId={target.id}
                  onOpenInWorkbench={() => setScreen('workbench')}
                  onOpenRows={() => setScreen('rows')}
                />
              </Suspense>
            ) : screen === 'taxonomy' ? (
              <Suspense fallback={<ScreenLoading what="taxonomy screen" />}>
                <TaxonomyScreen targetId={target.id} />
              </Suspense>
            ) : (
              <Suspense fallback={<ScreenLoading what="workbench" />}>
                <WorkbenchScreen targetId={target.id} />
              </Suspense>
            ))}
        </main>
      </div>
    </div>
  );
}
