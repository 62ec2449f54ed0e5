// Entering the workspace: starting it (the owner, on this machine: one button, no sign-in), opening the one-time
// owner link in another browser, or joining with an invite link and a name.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorText } from '../../../contract/text';
import {
  claimOwnerMutationOptions,
  joinWorkspaceMutationOptions,
  startWorkspaceMutationOptions,
  workspaceKeys,
} from '../../queries/workspace';
import { useWorkspaceUi } from './workspaceStore';

/** Starts the workspace; the owner link is shown once by the screen. */
export function StartPanel() {
  const client = useQueryClient();
  const start = useMutation({
    ...startWorkspaceMutationOptions(),
    onSuccess: async (answer) => {
      useWorkspaceUi.getState().showOwnerLink(answer.ownerLink);
      await client.invalidateQueries({ queryKey: workspaceKeys.all });
    },
  });
  return (
    <section className="panel workspace-enter" data-testid="workspace.start">
      <h3>Label together</h3>
      <p>
        A workspace lets several people label the same rows, each in their own browser, while the judge’s
        figures follow as they label. Your own sessions stay in this browser; nobody needs an account.
      </p>
      <button
        type="button"
        disabled={start.isPending}
        onClick={() => start.mutate(undefined)}
        data-testid="workspace.start.button"
      >
        Start a workspace
      </button>
      {start.error && (
        <p role="alert" className="error" data-testid="workspace.start.error">
          {errorText(start.error)}
        </p>
      )}
    </section>
  );
}

/** Opens the one-time owner link in this browser. */
export function ClaimPanel({ token, onDone }: { token: string; onDone: () => void }) {
  const client = useQueryClient();
  const claim = useMutation({
    ...claimOwnerMutationOptions(),
    onSuccess: async () => {
      onDone();
      await client.invalidateQueries({ queryKey: workspaceKeys.all });
    },
  });
  return (
    <section className="panel workspace-enter" data-testid="workspace.claim">
      <h3>Open the workspace as its owner</h3>
      <p>This link works once: this browser becomes the owner’s, and the link is spent.</p>
      <button
        type="button"
        disabled={claim.isPending}
        onClick={() => claim.mutate(token)}
        data-testid="workspace.claim.button"
      >
        Open as owner
      </button>
      {claim.error && (
        <p role="alert" className="error">
          {errorText(claim.error)}
        </p>
      )}
    </section>
  );
}

/** Joins with an invite link and a name. */
export function JoinPanel({ invite, onDone }: { invite: string; onDone: () => void }) {
  const client = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState('');
  const join = useMutation({
    ...joinWorkspaceMutationOptions(),
    onSuccess: async () => {
      onDone();
      await client.invalidateQueries({ queryKey: workspaceKeys.all });
    },
  });
  const trimmed = name.trim();
  return (
    <section className="panel workspace-enter" data-testid="workspace.join">
      <h3>You are invited to label</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) join.mutate({ invite, name: trimmed });
        }}
      >
        <label htmlFor={nameId}>Your name, as the owner will see it </label>
        <input
          id={nameId}
          value={name}
          maxLength={80}
          autoComplete="name"
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="workspace.join.name"
        />{' '}
        <button type="submit" disabled={!trimmed || join.isPending} data-testid="workspace.join.button">
          Join
        </button>
      </form>
      <p className="muted">
        An invite works once and expires; this browser keeps you signed in to the workspace.
      </p>
      {join.error && (
        <p role="alert" className="error" data-testid="workspace.join.error">
          {errorText(join.error)}
        </p>
      )}
    </section>
  );
}
