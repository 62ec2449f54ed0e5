// The tokenizer for the editor's checks (a target's context): a megabyte, so it is loaded once, lazily, after the page
// is up, and the checks run without it until then.
import { queryOptions } from '@tanstack/react-query';
import type { TokenCounting } from '../../core/runDraft';

export const tokenCountingQueryOptions = () =>
  queryOptions<TokenCounting>({
    queryKey: ['tokenizer'],
    queryFn: async () => {
      const { countTokens, requestTokens } = await import('../../contract/tokens');
      return { request: (request) => requestTokens(request).total, text: countTokens };
    },
    staleTime: Infinity,
    gcTime: Infinity,
  });
