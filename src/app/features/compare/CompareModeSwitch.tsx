// The switch between the single-model answers and compare mode, for the workbench's answers side.
import { SegmentedControl } from '../../components/SegmentedControl';
import { useCompare } from '../../stores/compare';

type Mode = 'single' | 'compare';

const OPTIONS = [
  { value: 'single', label: 'Answers', title: 'The answers of the model in the top bar' },
  {
    value: 'compare',
    label: 'Compare',
    title: 'Compare 2 to 4 model versions side by side on the same questions',
  },
] as const satisfies readonly { value: Mode; label: string; title: string }[];

/** "Answers | Compare", as radio buttons (arrow keys move between them). */
export function CompareModeSwitch() {
  const open = useCompare((s) => s.open);
  const setOpen = useCompare((s) => s.setOpen);
  return (
    <SegmentedControl<Mode>
      label="View"
      value={open ? 'compare' : 'single'}
      options={OPTIONS}
      onChange={(mode) => setOpen(mode === 'compare')}
      testId="compare.modeSwitch"
    />
  );
}
