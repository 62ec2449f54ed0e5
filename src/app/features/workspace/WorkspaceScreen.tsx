// The team workspace (issue 40): start one (no sign-in for a person alone), invite labellers by link, publish a rows
// run as a queue, label a queue blind with the keyboard, and, as the owner, watch the figures as people label. Loaded
// on first use, outside the first chunk. Links arrive in the address's fragment and are cleared once read.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../../../contract/text';
import { workspaceLinkOf } from '../../../core/workspace/links';
import type { WorkspaceLink } from '../../../core/workspace/links';
import { copyText } from '../../platform/clipboard';
import { clearAddressFragment, readAddressFragment } from '../../platform/address';
import { workspaceStatusQueryOptions } from '../../queries/workspace';
import { ClaimPanel, JoinPanel, StartPanel } from './EnterPanels';
import { InvitePanel } from './InvitePanel';
import { LabellerQueue } from './LabellerQueue';
import { OwnerQueue } from './OwnerQueue';
import { PublishPanel } from './PublishPanel';
import { QueueList } from './QueueList';
import { useWorkspaceUi } from './workspaceStore';
import './workspace.css';

export interface WorkspaceScreenProps {
  onOpenRows: () => void;
}

export function WorkspaceScreen({ onOpenRows }: WorkspaceScreenProps) {
  const status = useQuery(workspaceStatusQueryOptions());
  const [link, setLink] = useState<WorkspaceLink | null>(() => workspaceLinkOf(readAddressFragment()));
  const used = () => {
    clearAddressFragment();
    setLink(null);
  };
  const me = status.data?.me ?? null;
  return (
    <div className="workspace-screen" data-testid="workspace.screen">
      <h2>Team workspace</h2>
      {status.error && (
        <p role="alert" className="error" data-testid="workspace.status.error">
          {errorText(status.error)}
        </p>
      )}
      {me && (
        <p className="muted" data-testid="workspace.me">
          You are {me.name}, {me.role === 'owner' ? 'the owner' : 'a labeller'}.
        </p>
      )}
      <OwnerLinkNotice />
      {link?.kind === 'invite' && !me && <JoinPanel invite={link.token} onDone={used} />}
      {link?.kind === 'owner' && me?.role !== 'owner' && <ClaimPanel token={link.token} onDone={used} />}
      {status.data && !status.data.started && !link && <StartPanel />}
      {status.data?.started && !me && !link && (
        <p data-testid="workspace.outsider">
          A workspace runs here. To label in it, open the invite link its owner sent you.
        </p>
      )}
      {me?.role === 'owner' && <OwnerArea onOpenRows={onOpenRows} />}
      {me?.role === 'labeller' && <LabellerArea />}
    </div>
  );
}

/** The one-time owner link, shown once after starting: it opens the workspace as its owner in another browser. */
function OwnerLinkNotice() {
  const link = useWorkspaceUi((s) => s.ownerLink);
  const [copied, setCopied] = useState(false);
  if (!link) return null;
  return (
    <section className="panel" role="status" data-testid="workspace.ownerLink">
      <p>
        The workspace is on, and this browser is its owner. This owner link opens it as the owner in another
        browser; it works once and is shown only now:
      </p>
      <p>
        <input
          readOnly
          value={link}
          size={60}
          aria-label="Owner link"
          data-testid="workspace.ownerLink.value"
        />{' '}
        <button type="button" onClick={() => void copyText(link).then(setCopied)}>
          {copied ? 'Copied' : 'Copy'}
        </button>{' '}
        <button type="button" onClick={() => useWorkspaceUi.getState().showOwnerLink(null)}>
          I have kept it
        </button>
      </p>
    </section>
  );
}

function OwnerArea({ onOpenRows }: { onOpenRows: () => void }) {
  const queueId = useWorkspaceUi((s) => s.queueId);
  const view = useWorkspaceUi((s) => s.ownerView);
  return (
    <>
      <div className="workspace-columns">
        <InvitePanel />
        <QueueList role="owner" />
      </div>
      {queueId && (view === 'label' ? <LabellerQueue queueId={queueId} /> : <OwnerQueue queueId={queueId} />)}
      <PublishPanel onOpenRows={onOpenRows} />
    </>
  );
}

function LabellerArea() {
  const queueId = useWorkspaceUi((s) => s.queueId);
  return (
    <>
      <QueueList role="labeller" />
      {queueId && <LabellerQueue queueId={queueId} />}
    </>
  );
}
