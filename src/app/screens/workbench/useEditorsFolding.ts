// The panes' sizes: compare mode folds the editors, saved layouts arrive late, a conversation takes the larger share.
import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';
import type { GroupImperativeHandle, Layout, PanelImperativeHandle } from 'react-resizable-panels';
import { useLayout } from '../../stores/layout';

/** The state editor's share of the editors' height while the state is a conversation (its bar and turns need room). */
const CONVERSATION_STATE_SHARE = 65;

/** Applies a saved layout once it arrives (sessions load it from IndexedDB after the panes mount). */
export function useSyncedLayout(saved: Layout | undefined) {
  const ref = useRef<GroupImperativeHandle | null>(null);
  useEffect(() => {
    const group = ref.current;
    if (!group || !saved) return;
    const now = group.getLayout();
    const differs = Object.keys(saved).some((id) => Math.abs((now[id] ?? -1) - saved[id]!) > 0.5);
    if (differs && Object.keys(saved).every((id) => id in now)) group.setLayout(saved);
  }, [saved]);
  return ref;
}

/** Collapses or expands the editors' panel to follow `folded`; returns the panel's handle. */
function useFoldedPanel(comparing: boolean, folded: boolean) {
  const editorsPanel = useRef<PanelImperativeHandle | null>(null);
  // However compare mode is entered (the switch, the address, Back), it starts with the columns given the room.
  useEffect(() => {
    if (comparing) useLayout.getState().setCompareEditorsFolded(true);
  }, [comparing]);
  useEffect(() => {
    let frame = 0;
    let tries = 0;
    const apply = (): void => {
      const panel = editorsPanel.current;
      if (!panel) return;
      if (folded && !panel.isCollapsed()) panel.collapse();
      if (!folded && panel.isCollapsed()) panel.expand();
      // NOTE: the group takes the panel's new `collapsible` in its next layout pass, so on entering compare mode
      // collapse() does nothing yet: try again on the next frames (a handful is plenty).
      if (panel.isCollapsed() !== folded && ++tries < 10) frame = requestAnimationFrame(apply);
    };
    apply();
    return () => cancelAnimationFrame(frame);
  }, [folded]);
  return editorsPanel;
}

/** Ctrl/Cmd+Shift+E folds or unfolds the editors while comparing. */
function useFoldShortcut(comparing: boolean) {
  useEffect(() => {
    if (!comparing) return;
    const onKey = (e: KeyboardEvent): void => {
      if (!(e.ctrlKey || e.metaKey) || !e.shiftKey || e.altKey || e.code !== 'KeyE') return;
      e.preventDefault();
      const { compareEditorsFolded, setCompareEditorsFolded } = useLayout.getState();
      setCompareEditorsFolded(!compareEditorsFolded);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [comparing]);
}

/** A conversation is the state: until the user drags the split, it gets the larger share of the editors' height. */
function useConversationShare(
  editorsRef: RefObject<GroupImperativeHandle | null>,
  conversationMode: boolean,
  savedEditors: Layout | undefined,
) {
  useEffect(() => {
    const group = editorsRef.current;
    if (!group || savedEditors) return;
    const state = conversationMode ? CONVERSATION_STATE_SHARE : 50;
    // Only when the share must change: a layout set at mount for nothing races the first focus on the page.
    if (Math.abs((group.getLayout()['workbench-state'] ?? 50) - state) < 0.5) return;
    group.setLayout({ 'workbench-state': state, 'workbench-questions': 100 - state });
  }, [conversationMode, savedEditors, editorsRef]);
}

/** The panes' handles and whether the editors are folded, with the effects that keep them where the user left them. */
export function usePaneLayout(comparing: boolean, conversationMode: boolean) {
  const layout = useLayout();
  // Compare mode folds the editors to give the columns the width; they come back at the size they had.
  const folded = comparing && layout.compareEditorsFolded;
  const editorsPanel = useFoldedPanel(comparing, folded);
  useFoldShortcut(comparing);
  // Folded, a saved layout waits: applied now it would open the editors; it is applied when they unfold.
  const columnsRef = useSyncedLayout(folded ? undefined : layout.columns);
  const editorsRef = useSyncedLayout(layout.editors);
  useConversationShare(editorsRef, conversationMode, layout.editors);
  return { layout, folded, editorsPanel, columnsRef, editorsRef };
}
