// The app's rows store module with its `useRows` pointed at a store a test made (over its own database and the test
// reference): a component file calls it from its vi.mock factory and sets `holder.store` before rendering.
import type * as RowsStoreModule from '../../src/app/stores/rows';

export interface RowsStoreHolder {
  store: unknown;
}

export function heldRowsStore(
  original: typeof RowsStoreModule,
  holder: RowsStoreHolder,
): typeof RowsStoreModule {
  type UseRows = typeof original.useRows;
  const useRows = ((selector?: (s: unknown) => unknown) =>
    (holder.store as UseRows)(selector as never)) as unknown as UseRows;
  useRows.getState = () => (holder.store as UseRows).getState();
  return { ...original, useRows };
}
