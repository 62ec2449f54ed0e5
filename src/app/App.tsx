// The app shell: top bar, the local-only banner, and the main area where the workbench screen renders.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LocalOnlyBanner } from './features/shell/LocalOnlyBanner';
import { TargetSummary } from './features/shell/TargetSummary';
import { TopBar } from './features/shell/TopBar';
import { onlyLocalTargets, pickTarget, targetsQueryOptions } from './queries/targets';

/** The whole app. The main area takes the selected target; screens mount there. */
export function App() {
  const targets = useQuery(targetsQueryOptions());
  const [chosenId, setChosenId] = useState<string | null>(null);
  const target = targets.data ? pickTarget(targets.data, chosenId) : undefined;
  return (
    <div className="app">
      <TopBar targets={targets} selected={target} onSelectTarget={setChosenId} />
      {targets.data && onlyLocalTargets(targets.data) && <LocalOnlyBanner />}
      <main className="app-main" data-testid="app.main">
        {target && <TargetSummary target={target} />}
      </main>
    </div>
  );
}
