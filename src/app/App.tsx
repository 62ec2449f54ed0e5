// The app shell: top bar, the local-only banner, and the main area where the workbench screen renders.
import { useQuery } from '@tanstack/react-query';
import { SessionsSidebar } from './features/sessions/SessionsSidebar';
import { LocalOnlyBanner } from './features/shell/LocalOnlyBanner';
import { TopBar } from './features/shell/TopBar';
import { WorkbenchScreen } from './features/workbench/WorkbenchScreen';
import { onlyLocalTargets, pickTarget, targetsQueryOptions } from './queries/targets';
import { chooseTarget, useChosenTargetId } from './stores/target';

/** The whole app. The main area takes the selected target; screens mount there. */
export function App() {
  const targets = useQuery(targetsQueryOptions());
  const chosenId = useChosenTargetId();
  const target = targets.data ? pickTarget(targets.data, chosenId) : undefined;
  return (
    <div className="app">
      <TopBar targets={targets} selected={target} onSelectTarget={chooseTarget} />
      {targets.data && onlyLocalTargets(targets.data) && <LocalOnlyBanner />}
      <div className="app-body">
        <SessionsSidebar />
        <main className="app-main" data-testid="app.main">
          {target && <WorkbenchScreen targetId={target.id} />}
        </main>
      </div>
    </div>
  );
}
