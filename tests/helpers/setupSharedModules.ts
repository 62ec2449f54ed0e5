// Setup of the component files that share their worker's modules (vite.config.ts): the app's module-level stores go
// back to their first state after each test, as they would in a file of their own, so no file sees another's view,
// layout or preferences.
import { afterEach } from 'vitest';
import type { StoreApi } from 'zustand';
import { useAlignment } from '../../src/app/features/alignment/alignmentStore';
import { useVariantFamily } from '../../src/app/features/alignment/variantFamilyStore';
import { useTaxonomy } from '../../src/app/features/taxonomy/taxonomyStore';
import { useWorkspaceUi } from '../../src/app/features/workspace/workspaceStore';
import { useCompare } from '../../src/app/stores/compare';
import { useFileRunTally } from '../../src/app/stores/fileRunTally';
import { useLayout } from '../../src/app/stores/layout';
import { usePreferences } from '../../src/app/stores/preferences';
import { useRowsView } from '../../src/app/stores/rowsView';
import { useScreen } from '../../src/app/stores/screen';
import { useWorkbench } from '../../src/app/stores/workbench';

const STORES: StoreApi<object>[] = [
  useAlignment,
  useVariantFamily,
  useTaxonomy,
  useWorkspaceUi,
  useCompare,
  useFileRunTally,
  useLayout,
  usePreferences,
  useRowsView,
  useScreen,
  useWorkbench,
];

afterEach(() => {
  for (const store of STORES) store.setState(store.getInitialState(), true);
});
