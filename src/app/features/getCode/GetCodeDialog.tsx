// "Get code": the exact request on screen as curl, TypeScript or Python, the key from an environment variable, a copy
// button, the retry policy, and how to reach the target from outside the workbench.
import type { TargetInfo } from '../../queries/targets';
import { Dialog } from '../../components/Dialog';
import { GeneratedCode } from './GeneratedCode';
import { useGeneratedCode } from './useGeneratedCode';
import './getCode.css';

export interface GetCodeDialogProps {
  /** The body the editors hold, exactly as Run would send it; null while they do not parse. */
  body: unknown;
  /** True when the body meets the contract (else the service will answer 422). */
  valid: boolean;
  target: TargetInfo | undefined;
  /** Compare mode: one request per column to choose from, in place of `body` and `target`. */
  variants?: readonly { label: string; body: unknown; target: TargetInfo | undefined }[];
  onClose: () => void;
}

/** The dialog; it generates code only for the language on show. */
export function GetCodeDialog(props: GetCodeDialogProps) {
  const { valid, variants, onClose } = props;
  const shown = useGeneratedCode(props, variants);

  return (
    <Dialog title="Get code" onClose={onClose} testId="getCode.dialog">
      <div className="get-code">
        {variants && variants.length > 0 && (
          <label className="get-code__variant">
            Request of{' '}
            <select
              value={shown.variantIndex}
              onChange={(e) => shown.setVariantIndex(Number(e.target.value))}
              data-testid="getCode.column"
            >
              {variants.map((v, i) => (
                <option key={v.label} value={i}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {shown.code === null ? (
          <p role="alert">
            The editors do not hold JSON yet: fix the problems listed under them, then get the code.
          </p>
        ) : (
          <GeneratedCode
            code={shown.code}
            where={shown.where}
            target={shown.target}
            problem={shown.sent?.problem}
            valid={valid}
            language={shown.language}
            onLanguage={(l) => {
              shown.setLanguage(l);
              shown.setCopied(null);
            }}
            copied={shown.copied}
            onCopy={() => void shown.copy()}
          />
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Dialog>
  );
}
