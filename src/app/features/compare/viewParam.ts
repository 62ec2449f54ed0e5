// Compare mode in the address, `?view=compare`: a reload, a bookmark or a copied link opens the same view. The one
// place that writes it; replaceState, so switching views adds no history entries for Back to walk through.

const PARAM = 'view';
const COMPARE = 'compare';

/** Whether an address's query asks for compare mode. */
export const compareInSearch = (search: string): boolean =>
  new URLSearchParams(search).get(PARAM) === COMPARE;

/** Whether the page was opened in compare mode (false outside a browser). */
export const compareInAddress = (): boolean =>
  typeof location !== 'undefined' && compareInSearch(location.search);

/** Puts compare mode in the address, or takes it out, keeping the rest of the URL (a share fragment included). */
export function writeCompareToAddress(open: boolean): void {
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const url = new URL(location.href);
  if (open) url.searchParams.set(PARAM, COMPARE);
  else url.searchParams.delete(PARAM);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}
