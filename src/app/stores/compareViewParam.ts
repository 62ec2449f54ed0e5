// Compare mode in the address, `?view=compare`: a reload, a bookmark or a copied link opens the same view.
import { readAddressParam, writeAddressParam } from '../platform/address';

const PARAM = 'view';
const COMPARE = 'compare';

/** Whether an address's query asks for compare mode. */
export const compareInSearch = (search: string): boolean =>
  new URLSearchParams(search).get(PARAM) === COMPARE;

/** Whether the page was opened in compare mode (false outside a browser). */
export const compareInAddress = (): boolean => readAddressParam(PARAM) === COMPARE;

/** Puts compare mode in the address, or takes it out, keeping the rest of the URL (a share fragment included). */
export const writeCompareToAddress = (open: boolean): void => writeAddressParam(PARAM, open ? COMPARE : null);
