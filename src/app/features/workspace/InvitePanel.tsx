// The owner invites labellers: a note (who it is for), how long the link lasts, and the link to copy. An invite is
// single-use and expires; the server keeps only its hash, so the link is shown here once.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../../../contract/text';
import { copyText } from '../../platform/clipboard';
import { createInviteMutationOptions } from '../../queries/workspace';

const EXPIRIES = [
  { seconds: 3600, text: 'an hour' },
  { seconds: 24 * 3600, text: 'a day' },
  { seconds: 7 * 24 * 3600, text: 'a week' },
] as const;

export function InvitePanel() {
  const [note, setNote] = useState('');
  const [expires, setExpires] = useState<number>(24 * 3600);
  const [copied, setCopied] = useState<string | null>(null);
  const invite = useMutation(createInviteMutationOptions());
  const link = invite.data;
  return (
    <section
      className="panel workspace-invite"
      aria-labelledby="workspace-invite-title"
      data-testid="workspace.invite"
    >
      <h3 id="workspace-invite-title">Invite a labeller</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setCopied(null);
          invite.mutate({ note: note.trim(), expiresInSeconds: expires });
        }}
      >
        <label>
          For{' '}
          <input
            value={note}
            maxLength={120}
            placeholder="a name or a note (optional)"
            onChange={(e) => setNote(e.currentTarget.value)}
            data-testid="workspace.invite.note"
          />
        </label>{' '}
        <label>
          Valid for{' '}
          <select
            value={expires}
            onChange={(e) => setExpires(Number(e.currentTarget.value))}
            data-testid="workspace.invite.expiry"
          >
            {EXPIRIES.map((e) => (
              <option key={e.seconds} value={e.seconds}>
                {e.text}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="submit" disabled={invite.isPending} data-testid="workspace.invite.create">
          Make an invite link
        </button>
      </form>
      {link && (
        <p data-testid="workspace.invite.result">
          <input
            readOnly
            value={link.link}
            size={60}
            aria-label="Invite link"
            onFocus={(e) => e.currentTarget.select()}
            data-testid="workspace.invite.link"
          />{' '}
          <button
            type="button"
            onClick={() =>
              void copyText(link.link).then((ok) => setCopied(ok ? 'Copied.' : 'Copy it by hand.'))
            }
            data-testid="workspace.invite.copy"
          >
            Copy link
          </button>{' '}
          <span className="muted" role="status">
            {copied ?? `Works once, until ${new Date(link.expiresAt).toLocaleString()}.`}
          </span>
        </p>
      )}
      {invite.error && (
        <p role="alert" className="error">
          {errorText(invite.error)}
        </p>
      )}
    </section>
  );
}
