// The banner shown while the local reference is the only target: what it is, and the two lines that add a key.

/** Says the local reference is not a language model, and how to add the real service. */
export function LocalOnlyBanner() {
  return (
    <section className="banner" role="note" aria-labelledby="shell-banner-title" data-testid="shell.banner">
      <h2 id="shell-banner-title" className="banner-title">
        Only the local reference is available
      </h2>
      <p>
        It answers instantly and for free from a deterministic judge, so you can try everything here, but it
        is not a language model. To call the Evaluation Service, add these two lines to{' '}
        <code>.env.local</code> and restart <code>npm start</code>:
      </p>
      <pre className="banner-code" data-testid="shell.bannerLines">
        {'EVAL_BASE_URL=https://your-evaluation-service\nEVAL_API_KEY=your-key'}
      </pre>
      <p className="muted">The key stays in the workbench server; this page never sees it.</p>
    </section>
  );
}
