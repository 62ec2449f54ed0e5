// The "Get code" button of the run bar; the dialog and the code generators load when it is first opened.
import { useQuery } from '@tanstack/react-query';
import { lazy } from 'react';
import { DialogButton } from '../../components/DialogButton';
import { targetsQueryOptions } from '../../queries/targets';

const GetCodeDialog = lazy(() => import('./GetCodeDialog').then((m) => ({ default: m.GetCodeDialog })));

export interface GetCodeButtonProps {
  /** The body Run would send; null while the editors do not parse. */
  body: unknown;
  valid: boolean;
  targetId: string;
  /** Compare mode: the columns, whose requests differ from `body` by their model and target. */
  columns?: readonly { model: string; targetId: string }[];
}

/** Opens the get-code dialog for the request on screen and the target picked in the top bar. */
export function GetCodeButton({ body, valid, targetId, columns }: GetCodeButtonProps) {
  const targets = useQuery(targetsQueryOptions());
  const target = targets.data?.find((t) => t.id === targetId);
  const variants = columns?.map((c, i) => ({
    label: `Column ${i + 1}: ${c.model.trim() || 'no model'} on ${c.targetId}`,
    body: body !== null && typeof body === 'object' ? { ...body, model: c.model.trim() } : body,
    target: targets.data?.find((t) => t.id === c.targetId),
  }));
  return (
    <DialogButton
      title="The request on screen as curl, TypeScript or Python"
      testId="getCode.open"
      dialog={(close) => (
        <GetCodeDialog body={body} valid={valid} target={target} variants={variants} onClose={close} />
      )}
    >
      Get code
    </DialogButton>
  );
}
