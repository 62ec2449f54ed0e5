// How the main screen is laid out: pane sizes and the questions view. UI state only; persistence subscribes to it.
import { create } from 'zustand';
import type { Layout } from 'react-resizable-panels';

export interface LayoutState {
  /** Editors column and answers column, as percentages by panel id. */
  columns: Layout | undefined;
  /** State editor and questions editor, as percentages by panel id. */
  editors: Layout | undefined;
  /** The questions as JSON text or as a form. */
  questionsView: 'json' | 'form';
  /** In compare mode the editors fold away so the columns get the width (Ctrl+Shift+E brings them back). */
  compareEditorsFolded: boolean;
  setCompareEditorsFolded: (folded: boolean) => void;
  setColumns: (layout: Layout) => void;
  setEditors: (layout: Layout) => void;
  setQuestionsView: (view: LayoutState['questionsView']) => void;
  /** Restores a saved layout (unknown or missing parts keep their defaults). */
  hydrate: (saved: Partial<Pick<LayoutState, 'columns' | 'editors' | 'questionsView'>>) => void;
}

/** The layout store. Undefined sizes mean the panels' defaults. */
export const useLayout = create<LayoutState>()((set) => ({
  columns: undefined,
  editors: undefined,
  questionsView: 'json',
  compareEditorsFolded: true,
  setCompareEditorsFolded: (compareEditorsFolded) => set({ compareEditorsFolded }),
  setColumns: (columns) => set({ columns }),
  setEditors: (editors) => set({ editors }),
  setQuestionsView: (questionsView) => set({ questionsView }),
  hydrate: (saved) =>
    set((s) => ({
      columns: saved.columns ?? s.columns,
      editors: saved.editors ?? s.editors,
      questionsView:
        saved.questionsView === 'form' || saved.questionsView === 'json'
          ? saved.questionsView
          : s.questionsView,
    })),
}));
