// Downloads: the one module that hands files to the user, so features and tests share one way to do it.

/** Downloads text parts (a Blob takes them as they are, so a large export is never joined into one string). */
export function downloadParts(fileName: string, type: string, parts: readonly string[]): void {
  const url = URL.createObjectURL(new Blob(parts as string[], { type }));
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

/** Downloads one text as a file. */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  downloadParts(fileName, type, [text]);
}
