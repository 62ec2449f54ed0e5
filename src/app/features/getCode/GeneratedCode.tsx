// The code of the Get code dialog: where the request goes and how the key is read, what to run first, the language
// and the copy button, the code, and how to run it.
import { API_KEY_ENV, evaluateUrl } from '../../../core/codegen';
import { SegmentedControl } from '../../components/SegmentedControl';
import type { TargetInfo } from '../../queries/targets';
import type { CodeTarget } from './codeTarget';
import { RETRY_SENTENCE } from './codeTarget';
import type { CodeLanguage } from './useGeneratedCode';

const LANGUAGES = [
  { value: 'curl', label: 'curl' },
  { value: 'typescript', label: 'TypeScript' },
  { value: 'python', label: 'Python' },
] as const;

const FILE_HINT: Record<CodeLanguage, string> = {
  curl: 'Paste into a terminal (bash, zsh or sh).',
  typescript: 'Save as evaluate.ts and run it with npx tsx evaluate.ts (Node 18+).',
  python: 'Save as evaluate.py and run it with python3 evaluate.py (pip install requests).',
};

export interface GeneratedCodeProps {
  code: string;
  where: CodeTarget;
  target: TargetInfo | undefined;
  /** Why the body could not be translated to the target's dialect, if it could not. */
  problem: string | null | undefined;
  valid: boolean;
  language: CodeLanguage;
  onLanguage: (language: CodeLanguage) => void;
  copied: 'copied' | 'refused' | null;
  onCopy: () => void;
}

export function GeneratedCode(props: GeneratedCodeProps) {
  const { code, language, copied } = props;
  return (
    <>
      <CodeIntro where={props.where} target={props.target} problem={props.problem} valid={props.valid} />
      <div className="get-code__bar">
        <SegmentedControl
          label="Language"
          value={language}
          options={LANGUAGES}
          onChange={props.onLanguage}
          testId="getCode.language"
        />
        <span className="get-code__copied" role="status" data-testid="getCode.copyStatus">
          {copied === 'copied'
            ? 'Copied.'
            : copied === 'refused'
              ? 'The browser did not allow copying: select the code and copy it.'
              : ''}
        </span>
        <button type="button" className="primary" onClick={props.onCopy} data-testid="getCode.copy">
          Copy
        </button>
      </div>
      <pre className="get-code__code" tabIndex={0} aria-label={`${language} code`} data-testid="getCode.code">
        {code}
      </pre>
      <p className="muted get-code__hint">{FILE_HINT[language]}</p>
      <p className="muted get-code__hint" data-testid="getCode.retry">
        {RETRY_SENTENCE}
      </p>
    </>
  );
}

type CodeIntroProps = Pick<GeneratedCodeProps, 'where' | 'target' | 'problem' | 'valid'>;

/** Where the request goes, the key's variable, the dialect it is translated to, its errors, and the setup. */
function CodeIntro({ where, target, problem, valid }: CodeIntroProps) {
  return (
    <>
      <p className="get-code__lead">
        The exact request on screen, sent to <code data-testid="getCode.url">{evaluateUrl(where)}</code>. The
        key is read from <code>${API_KEY_ENV}</code>; it is never written into the code.
      </p>
      {target?.dialect === 'decisions' && (
        <p className="muted" data-testid="getCode.dialect">
          {target.label} speaks the Decisions form: the body below is the request translated to it
          {problem ? ` (it could not be: ${problem})` : ''}, as the workbench sends it.
        </p>
      )}
      {!valid && (
        <p className="get-code__warning" role="note">
          The request has errors (see the problems list): the service will answer 422 until they are fixed.
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
    </>
  );
}
