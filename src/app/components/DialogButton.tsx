// A button that opens a dialog; the dialog is drawn only while open, under Suspense, so a lazy() dialog and all it
// imports load on first use instead of with the screen.
import { Suspense, useState } from 'react';
import type { ReactNode } from 'react';

export interface DialogButtonProps {
  /** The button's text. */
  children: ReactNode;
  /** What the dialog is for, on hover. */
  title: string;
  testId: string;
  /** The dialog while open; it calls `close` to go away. */
  dialog: (close: () => void) => ReactNode;
}

/** A button with aria-haspopup="dialog" that mounts `dialog` when pressed and unmounts it on close. */
export function DialogButton({ children, title, testId, dialog }: DialogButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title={title}
        data-testid={testId}
      >
        {children}
      </button>
      {open && <Suspense fallback={null}>{dialog(() => setOpen(false))}</Suspense>}
    </>
  );
}
