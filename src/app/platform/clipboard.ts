// The clipboard: the app's one entry point to it, so tests and features never reach for navigator.clipboard directly.

/**
 * Copies text to the clipboard; false when the browser refuses. The async Clipboard API needs a secure context
 * (https or localhost); on plain http (the workbench on a LAN address) a selected, off-screen textarea and the
 * legacy copy command still work inside the user's click.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, document not focused): try the legacy path below.
  }
  return legacyCopy(text);
}

function legacyCopy(text: string): boolean {
  if (typeof document === 'undefined' || typeof document.execCommand !== 'function') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.left = '-9999px';
  const before = document.activeElement as HTMLElement | null;
  document.body.append(area);
  area.select();
  let copied: boolean;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  before?.focus?.();
  return copied;
}
