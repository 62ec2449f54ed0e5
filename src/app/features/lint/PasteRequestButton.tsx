// The "Paste request" button of the run bar; its dialog loads on first use.
import { lazy } from 'react';
import type { SessionDoc } from '../../../core/session';
import { DialogButton } from '../../components/DialogButton';

const PasteRequestDialog = lazy(() =>
  import('./PasteRequestDialog').then((m) => ({ default: m.PasteRequestDialog })),
);

/** Opens the paste-request dialog; `onApply` edits the session document. */
export function PasteRequestButton({
  onApply,
}: {
  onApply: (edit: (doc: SessionDoc) => SessionDoc) => void;
}) {
  return (
    <DialogButton
      title="Load a request from documentation, a gateway sample or a curl command"
      testId="lint.paste"
      dialog={(close) => <PasteRequestDialog onApply={onApply} onClose={close} />}
    >
      Paste request
    </DialogButton>
  );
}
