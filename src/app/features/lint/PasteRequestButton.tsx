// The "Paste request" button of the run bar; its dialog loads on first use.
import { Suspense, lazy, useState } from 'react';
import type { SessionDoc } from '../../../core/session';

const PasteRequestDialog = lazy(() =>
  import('./PasteRequestDialog').then((m) => ({ default: m.PasteRequestDialog })),
);

/** Opens the paste-request dialog; `onApply` edits the session document. */
export function PasteRequestButton({
  onApply,
}: {
  onApply: (edit: (doc: SessionDoc) => SessionDoc) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title="Load a request from documentation, a gateway sample or a curl command"
        data-testid="lint.paste"
      >
        Paste request
      </button>
      {open && (
        <Suspense fallback={null}>
          <PasteRequestDialog onApply={onApply} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
