// A workbench pane: a section named by its h2, a header row with the heading and its controls, then the body.
import type { ReactNode } from 'react';

export interface PaneProps {
  /** Prefix of the heading's id ("<id>-heading"), which names the section. */
  id: string;
  heading: string;
  testId: string;
  /** Beside the heading: a view or mode switch. */
  controls?: ReactNode;
  /** The body and whatever follows it (a syntax note). */
  children: ReactNode;
}

/** A labelled pane section with its header row. */
export function Pane({ id, heading, testId, controls, children }: PaneProps) {
  const headingId = `${id}-heading`;
  return (
    <section className="pane" aria-labelledby={headingId} data-testid={testId}>
      <header className="pane__header">
        <h2 id={headingId}>{heading}</h2>
        {controls}
      </header>
      {children}
    </section>
  );
}
