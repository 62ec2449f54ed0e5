// Hands an export to the user as a downloaded file: the one place the rows feature touches downloads.

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
