// The banner shown while the local reference is the only target: what it is, and the two lines that add a key.
import { usePreferences } from '../../stores/preferences';

/** Says the local reference is not a language model, and how to add the real service; Hide is kept in this browser. */
export function LocalOnlyBanner() {
  const hidden = usePreferences((s) => s.noteHidden);
  const setHidden = usePreferences((s) => s.setNoteHidden);
  if (hidden) return null;
  return (
    <section className="banner" role="note" aria-labelledby="shell-banner-title" data-testid="shell.banner">
      <div className="banner-text">
        <h2 id="shell-banner-title" className="banner-title">
          Only the local reference is available
        </h2>
        <p>
          It answers instantly and for free from a deterministic judge, but it is not a language model. To
          call the Evaluation Service, add these two lines to <code>.env.local</code> and restart{' '}
          <code>npm start</code>. The key stays in the workbench server; this page never sees it.
        </p>
      </div>
      <pre className="banner-code" data-testid="shell.bannerLines">
        {'EVAL_BASE_URL=https://your-evaluation-service\nEVAL_API_KEY=your-key'}
      </pre>
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
