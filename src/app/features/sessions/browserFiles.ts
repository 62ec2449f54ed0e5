// Files and the clipboard: the one module of the sessions feature that touches them, so tests replace it whole.
// Downloads and the clipboard themselves live in src/app/platform.

import { fileText } from '../../platform/files';

/** Hands text to the user as a downloaded file, through the app's one download module. */
export { downloadText } from '../../platform/download';

/** Copies text to the clipboard through the app's one clipboard module. */
export { copyText } from '../../platform/clipboard';

/** The text of a file the user picked. */
export function readFileText(file: File): Promise<string> {
  return fileText(file);
}
