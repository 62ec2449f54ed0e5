// Files and the clipboard: the one module of the sessions feature that touches them, so tests replace it whole.
// The clipboard itself is src/app/platform/clipboard.

/** Hands text to the user as a downloaded file. */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked on the next task: Safari cancels a download whose URL is revoked in the same task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Copies text to the clipboard through the app's one clipboard module. */
export { copyText } from '../../platform/clipboard';

/** The text of a file the user picked. */
export function readFileText(file: File): Promise<string> {
  return file.text();
}
