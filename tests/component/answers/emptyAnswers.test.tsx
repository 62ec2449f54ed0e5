// The empty answers pane's cost words follow the chosen target: the local reference bills nothing, another target's
// costs are its price's, and a target with no price has an unknown cost (it said "nothing is billed" everywhere).
import { TargetInfoSchema } from '../../../src/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { AnswersPane } from '../../../src/app/features/answers/AnswersPane';
import { createQueryClient } from '../../../src/app/queryClient';
import { targetsQueryOptions } from '../../../src/app/queries/targets';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { exampleDoc } from '../../../src/core/example';

const target = (id: string, kind: 'local' | 'direct', inputPrice: number | null) =>
  TargetInfoSchema.parse({
    id,
    label: id === 'local' ? 'Local reference' : `Server ${id}`,
    kind,
    host: kind === 'local' ? 'in-process' : 'api.example.com',
    evaluatePath: '/v1/evaluate',
    inputPrice,
  });

function renderEmpty(targetId: string) {
  act(() => useWorkbench.getState().hydrate(exampleDoc(targetId), []));
  const client = createQueryClient();
  client.setQueryData(targetsQueryOptions().queryKey, [
    target('unpriced', 'direct', null),
    target('priced', 'direct', 3),
    target('local', 'local', 0),
  ]);
  return render(
    <QueryClientProvider client={client}>
      <AnswersPane onReveal={() => {}} />
    </QueryClientProvider>,
  );
}

afterEach(() => act(() => useWorkbench.getState().hydrate(exampleDoc(), [])));

it('does not say "On the local reference nothing is billed" on a target that is not local', () => {
  renderEmpty('unpriced');
  const empty = screen.getByTestId('answers.empty');
  expect(empty).not.toHaveTextContent('nothing is billed');
  expect(screen.getByTestId('answers.empty.cost')).toHaveTextContent(
    'Server unpriced states no price, so the cost of its answers is shown as unknown.',
  );
});

it("names a priced target's own price, and keeps the local reference's words on the local target", () => {
  const { unmount } = renderEmpty('priced');
  expect(screen.getByTestId('answers.empty.cost')).toHaveTextContent(
    "Costs shown are estimated at Server priced's price for the tokens sent",
  );
  unmount();
  renderEmpty('local');
  expect(screen.getByTestId('answers.empty.cost')).toHaveTextContent(
    'On the local reference nothing is billed',
  );
});
