// The banner about configured targets whose key is missing: which variables to set. The local-only case has its own
// banner (LocalOnlyBanner); nothing shows when every configured target can send.
import type { TargetInfo } from '../../queries/targets';
import { usePreferences } from '../../stores/preferences';

/** Names the targets that will not send and the lines that give them their keys; Hide is kept in this browser. */
export function TargetsBanner({ targets }: { targets: readonly TargetInfo[] }) {
  const hidden = usePreferences((s) => s.noteHidden);
  const setHidden = usePreferences((s) => s.setNoteHidden);
  const missing = targets.filter((t) => t.keyMissing !== null);
  if (hidden || missing.length === 0) return null;
  return (
    <section className="banner" role="note" aria-labelledby="shell-banner-title" data-testid="shell.banner">
      <div className="banner-text">
        <h2 id="shell-banner-title" className="banner-title">
          {missing.length === 1 ? 'One target has' : `${missing.length} targets have`} no key
        </h2>
        <p>
          {missing.map((t) => t.label).join(', ')} {missing.length === 1 ? 'is' : 'are'} listed but will not
          send until {missing.length === 1 ? 'its key is' : 'their keys are'} set: add{' '}
          {missing.length === 1 ? 'this line' : 'these lines'} to <code>.env.local</code> and restart{' '}
          <code>npm start</code>. Keys stay in the workbench server; this page never sees them.
        </p>
      </div>
      <pre className="banner-code" data-testid="shell.bannerLines">
        {missing.map((t) => `${t.keyVar ?? ''}=your-key`).join('\n')}
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
