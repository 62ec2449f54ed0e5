// The open run is part of where the user is on the alignment screen: kept in the address, and opened again after a
// reload.
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { readAddressParam, writeAddressParam } from '../../platform/address';
import { useRows } from '../../stores/rows';

/** The address parameter that keeps the open run, so a reload comes back to it. */
const RUN_PARAM = 'run';
const RunIdParam = z.string().trim().min(1).max(200);

/** The run the address names, or null. */
const runFromAddress = (): string | null => {
  const parsed = RunIdParam.safeParse(readAddressParam(RUN_PARAM));
  return parsed.success ? parsed.data : null;
};

/** Reads the stored runs, opens the run the address names, and keeps the open run (`runId`) in the address. */
export function useOpenRunAddress(runId: string | null): void {
  useEffect(() => {
    void useRows.getState().refreshRuns();
  }, []);

  // Read once, before any effect writes the address.
  const [wanted] = useState(runFromAddress);
  useEffect(() => {
    const state = useRows.getState();
    if (wanted && !state.openRun && !state.running) void state.openRunById(wanted);
  }, [wanted]);
  useEffect(() => {
    // While the run named by the address is being read, the address keeps it.
    if (runId || !useRows.getState().loadingRun) writeAddressParam(RUN_PARAM, runId);
  }, [runId]);
  useEffect(() => () => writeAddressParam(RUN_PARAM, null), []);
}
