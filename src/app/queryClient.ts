// The app's one QueryClient. The client module already retries per the contract, so React Query never retries.
import { QueryClient } from '@tanstack/react-query';

/** A QueryClient with the workbench's defaults; tests make a fresh one each. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
      mutations: { retry: false },
    },
  });
}
