// What the person is doing in the workspace area: the queue open, which labels the owner's figures read, and the
// one-time owner link while it is on show (held only here, never stored: it is shown once).
import { create } from 'zustand';
import type { FiguresBasis } from '../../../contract/workspace';

export interface WorkspaceUiState {
  queueId: string | null;
  /** The owner's view of a queue: its figures and adjudication, or labelling it like anyone else. */
  ownerView: 'figures' | 'label';
  basis: FiguresBasis;
  ownerLink: string | null;
  openQueue: (id: string | null, view?: 'figures' | 'label') => void;
  setBasis: (basis: FiguresBasis) => void;
  showOwnerLink: (link: string | null) => void;
}

export const useWorkspaceUi = create<WorkspaceUiState>()((set) => ({
  queueId: null,
  ownerView: 'figures',
  basis: 'settled',
  ownerLink: null,
  openQueue: (queueId, ownerView = 'figures') => set({ queueId, ownerView }),
  setBasis: (basis) => set({ basis }),
  showOwnerLink: (ownerLink) => set({ ownerLink }),
}));
