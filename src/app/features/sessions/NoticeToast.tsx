// The sidebar's toast: what just happened, with Undo after a delete. Information fades; errors stay until closed.
import { useEffect } from 'react';
import type { Notice } from '../../stores/sessions';

interface NoticeToastProps {
  notice: Notice;
  onUndo: (id: string) => void;
  onClose: () => void;
}

/** How long an information toast stays: long enough to reach Undo. */
export const NOTICE_MS = 10_000;

/** One toast. */
export function NoticeToast({ notice, onUndo, onClose }: NoticeToastProps) {
  useEffect(() => {
    if (notice.tone === 'error') return;
    const timer = setTimeout(onClose, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, onClose]);

  const undoOf = notice.undoDeleteOf;
  return (
    <div
      className={`toast is-${notice.tone}`}
      role={notice.tone === 'error' ? 'alert' : 'status'}
      data-testid="sessions.toast"
    >
      <span data-testid="sessions.toastText">{notice.text}</span>
      {undoOf && (
        <button type="button" onClick={() => onUndo(undoOf)} data-testid="sessions.toastUndo">
          Undo
        </button>
      )}
      <button type="button" className="toast-close" aria-label="Close message" onClick={onClose}>
        ×
      </button>
    </div>
  );
}
