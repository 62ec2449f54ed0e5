// The banner shown while the local reference is the only target: what answers there (the lexical judge, and a model
// file when one is loaded), how to run a model file, and the two lines that add a key.
import type { TargetInfo } from '../../queries/targets';
import { usePreferences } from '../../stores/preferences';

export interface LocalOnlyBannerProps {
  /** The model file the local reference answers from (REFERENCE_MODEL_FILE), if any. */
  modelFile?: TargetInfo['modelFile'];
}

/** Says who answers on the local reference, and how to add a model file or the real service; Hide is kept in this browser. */
export function LocalOnlyBanner({ modelFile }: LocalOnlyBannerProps) {
  const hidden = usePreferences((s) => s.noteHidden);
  const setHidden = usePreferences((s) => s.setNoteHidden);
  if (hidden) return null;
  return (
    <section className="banner" role="note" aria-labelledby="shell-banner-title" data-testid="shell.banner">
      {/* One line until asked: the how-to opens on demand, so the note never takes the editors' room. */}
      <div className="banner-text">
        <div className="banner-line">
          <h2 id="shell-banner-title" className="banner-title">
            Only the local reference is available
          </h2>
          :{' '}
          {modelFile ? `${modelFile.fileName} and a lexical judge` : 'a lexical judge, not a language model'};
          nothing is billed, and costs show the hosted list price it mimics.
        </div>
        <details className="banner-more">
          <summary>Add a model file or a key</summary>
          {modelFile ? (
            <p data-testid="shell.bannerModel">
              It answers from <code>{modelFile.fileName}</code> on this machine (model{' '}
              <code>{modelFile.alias}</code>) and from a deterministic lexical judge that is not a language
              model (<code>model-latest</code>, <code>model-preview</code>); Compare puts the two side by
              side.
            </p>
          ) : (
            <p data-testid="shell.bannerModel">
              It answers instantly from a deterministic judge, but it is not a language model. To answer from
              a language model on this machine, start with any GGUF file:{' '}
              <code>REFERENCE_MODEL_FILE=path/to/model.gguf npm start</code>.
            </p>
          )}
          <p>
            To call the Evaluation Service, add these two lines to <code>.env.local</code> and restart{' '}
            <code>npm start</code>. The key stays in the workbench server; this page never sees it.
          </p>
          <pre className="banner-code" data-testid="shell.bannerLines">
            {'EVAL_BASE_URL=https://your-evaluation-service\nEVAL_API_KEY=your-key'}
          </pre>
        </details>
      </div>
      <button
        type="button"
        className="banner-hide"
        onClick={() => setHidden(true)}
        aria-label="Hide this note"
      >
        Hide
      </button>
    </section>
  );
}
