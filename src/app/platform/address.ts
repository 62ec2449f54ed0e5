// The page's address as UI state: one query parameter per view choice (compare mode, the current screen), so a reload,
// a bookmark or a copied link opens the same view. replaceState: switching views adds no history entries for Back.

/** A query parameter of the current address, or null (also outside a browser). */
export function readAddressParam(name: string): string | null {
  return typeof location === 'undefined' ? null : new URLSearchParams(location.search).get(name);
}

/** Sets a query parameter (null removes it), keeping the rest of the URL (a share fragment included). */
export function writeAddressParam(name: string, value: string | null): void {
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const url = new URL(location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
}

/** The address's fragment ('#…'), or '' (also outside a browser). */
export const readAddressFragment = (): string => (typeof location === 'undefined' ? '' : location.hash);

/** Removes the fragment (a link's one-time token must not stay in the address bar or its history entry). */
export function clearAddressFragment(): void {
  if (typeof location === 'undefined' || typeof history === 'undefined' || location.hash === '') return;
  const url = new URL(location.href);
  url.hash = '';
  history.replaceState(history.state, '', url);
}
