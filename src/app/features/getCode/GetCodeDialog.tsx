// "Get code": the exact request on screen as curl, TypeScript or Python, the key from an environment variable, a copy
// button, the retry policy, and how to reach the target from outside the workbench.
import { useMemo, useState } from 'react';
import { PLAIN_WIRE } from '../../../contract';
import {
  API_KEY_ENV,
  bodyAsSent,
  evaluateUrl,
  requestToCurl,
  requestToPython,
  requestToTypeScript,
} from '../../../core/codegen';
import { SegmentedControl } from '../../components/SegmentedControl';
import { copyText } from '../../platform/clipboard';
import type { TargetInfo } from '../../queries/targets';
import { Dialog } from '../../components/Dialog';
import { RETRY_SENTENCE, codeTargetFor } from './codeTarget';
import './getCode.css';

export type CodeLanguage = 'curl' | 'typescript' | 'python';

const LANGUAGES = [
  { value: 'curl', label: 'curl' },
  { value: 'typescript', label: 'TypeScript' },
  { value: 'python', label: 'Python' },
] as const;

const GENERATORS = { curl: requestToCurl, typescript: requestToTypeScript, python: requestToPython } as const;
const FILE_HINT: Record<CodeLanguage, string> = {
  curl: 'Paste into a terminal (bash, zsh or sh).',
  typescript: 'Save as evaluate.ts and run it with npx tsx evaluate.ts (Node 18+).',
  python: 'Save as evaluate.py and run it with python3 evaluate.py (pip install requests).',
};

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
  const [variantIndex, setVariantIndex] = useState(0);
  const variant = variants?.[variantIndex];
  const body = variant ? variant.body : props.body;
  const target = variant ? variant.target : props.target;
  const [language, setLanguage] = useState<CodeLanguage>('curl');
  const [copied, setCopied] = useState<'copied' | 'refused' | null>(null);
  const where = useMemo(() => codeTargetFor(target), [target]);
  // The body as this target receives it: the proxy's translation for its dialect, so the code runs unchanged there.
  const sent = useMemo(
    () =>
      body === null
        ? null
        : bodyAsSent(
            body,
            target
              ? { dialect: target.dialect, envelope: target.envelope, modelInPath: target.modelInPath }
              : PLAIN_WIRE,
          ),
    [body, target],
  );
  const code = useMemo(
    () => (sent === null ? null : GENERATORS[language](sent.body, where)),
    [sent, language, where],
  );

  const copy = async (): Promise<void> => {
    if (code === null) return;
    setCopied((await copyText(code)) ? 'copied' : 'refused');
  };

  return (
    <Dialog title="Get code" onClose={onClose} testId="getCode.dialog">
      <div className="get-code">
        {variants && variants.length > 0 && (
          <label className="get-code__variant">
            Request of{' '}
            <select
              value={variantIndex}
              onChange={(e) => setVariantIndex(Number(e.target.value))}
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
        {code === null ? (
          <p role="alert">
            The editors do not hold JSON yet: fix the problems listed under them, then get the code.
          </p>
        ) : (
          <>
            <p className="get-code__lead">
              The exact request on screen, sent to <code data-testid="getCode.url">{evaluateUrl(where)}</code>
              . The key is read from <code>${API_KEY_ENV}</code>; it is never written into the code.
            </p>
            {target?.dialect === 'decisions' && (
              <p className="muted" data-testid="getCode.dialect">
                {target.label} speaks the Decisions form: the body below is the request translated to it
                {sent?.problem ? ` (it could not be: ${sent.problem})` : ''}, as the workbench sends it.
              </p>
            )}
            {!valid && (
              <p className="get-code__warning" role="note">
                The request has errors (see the problems list): the service will answer 422 until they are
                fixed.
              </p>
            )}
            <div className="get-code__setup">
              <span className="muted">First, in a terminal:</span>
              <pre data-testid="getCode.setup">{where.setup.join('\n')}</pre>
              {where.notes.map((n) => (
                <p key={n} className="muted">
                  {n}
                </p>
              ))}
            </div>
            <div className="get-code__bar">
              <SegmentedControl
                label="Language"
                value={language}
                options={LANGUAGES}
                onChange={(l) => {
                  setLanguage(l);
                  setCopied(null);
                }}
                testId="getCode.language"
              />
              <span className="get-code__copied" role="status" data-testid="getCode.copyStatus">
                {copied === 'copied'
                  ? 'Copied.'
                  : copied === 'refused'
                    ? 'The browser did not allow copying: select the code and copy it.'
                    : ''}
              </span>
              <button
                type="button"
                className="primary"
                onClick={() => void copy()}
                data-testid="getCode.copy"
              >
                Copy
              </button>
            </div>
            <pre
              className="get-code__code"
              tabIndex={0}
              aria-label={`${language} code`}
              data-testid="getCode.code"
            >
              {code}
            </pre>
            <p className="muted get-code__hint">{FILE_HINT[language]}</p>
            <p className="muted get-code__hint" data-testid="getCode.retry">
              {RETRY_SENTENCE}
            </p>
          </>
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
