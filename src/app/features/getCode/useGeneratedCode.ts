// The Get code dialog's state: which column's request (compare mode), which language, whether the copy worked, and the
// code itself, generated only for the language on show.
import { useMemo, useState } from 'react';
import { PLAIN_WIRE } from '../../../contract';
import { bodyAsSent, requestToCurl, requestToPython, requestToTypeScript } from '../../../core/codegen';
import { copyText } from '../../platform/clipboard';
import type { TargetInfo } from '../../queries/targets';
import { codeTargetFor } from './codeTarget';

export type CodeLanguage = 'curl' | 'typescript' | 'python';

const GENERATORS = { curl: requestToCurl, typescript: requestToTypeScript, python: requestToPython } as const;

/** A request to write code for: the body as Run would send it (null while it does not parse), and its target. */
export interface CodeRequest {
  body: unknown;
  target: TargetInfo | undefined;
}

/** The request shown (the chosen column's in compare mode), where it goes, the code, and the copy's outcome. */
export function useGeneratedCode(
  request: CodeRequest,
  variants?: readonly (CodeRequest & { label: string })[],
) {
  const [variantIndex, setVariantIndex] = useState(0);
  const variant = variants?.[variantIndex];
  const body = variant ? variant.body : request.body;
  const target = variant ? variant.target : request.target;
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
  return {
    variantIndex,
    setVariantIndex,
    target,
    language,
    setLanguage,
    copied,
    setCopied,
    where,
    sent,
    code,
    copy,
  };
}
