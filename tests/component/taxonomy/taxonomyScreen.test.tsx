// The large-taxonomy screen against the local reference over loopback HTTP (the real client): paste 600 labels, see
// the groups, run with the session's state and model, read the path, the final distribution and the cost.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClientTarget } from '../../../src/client';
import { estimateCost } from '../../../src/contract';
import { formatCost } from '../../../src/contract';
import { exampleDoc } from '../../../src/core/example';
import { TaxonomyScreen } from '../../../src/app/features/taxonomy/TaxonomyScreen';
import { useTaxonomy } from '../../../src/app/features/taxonomy/taxonomyStore';
import { useWorkbench } from '../../../src/app/stores/workbench';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { TAXONOMY_MATERIALS, taxonomyLabels } from '../../helpers/taxonomyFixture';
import { withApp } from '../lint/workbenchHarness';

let reference: RunningReference;
beforeAll(async () => {
  reference = await serveReference({ port: 0 });
});
afterAll(() => reference.close());

const target =
  (key = DEFAULT_API_KEY) =>
  (): ClientTarget => ({ baseUrl: reference.url, headers: { Authorization: `Bearer ${key}` } });

beforeEach(() => {
  useTaxonomy.setState({
    status: 'idle',
    steps: [],
    result: null,
    error: null,
  });
  useWorkbench.getState().hydrate(
    {
      ...exampleDoc(),
      stateMode: 'text',
      stateText: 'The copper lantern I bought last week arrived dented and the glass is cracked.',
      model: 'model-1.13.0',
    },
    [],
  );
});

describe('TaxonomyScreen', () => {
  it('groups 600 pasted labels and resolves them to one label with its path, distribution and cost', async () => {
    const user = userEvent.setup();
    render(withApp(<TaxonomyScreen targetId="local" resolveTarget={target()} />));
    expect(screen.getByTestId('taxonomy.run')).toBeDisabled();
    await user.click(screen.getByTestId('taxonomy.input'));
    await user.paste(taxonomyLabels().join('\n'));
    await user.type(
      screen.getByTestId('taxonomy.instructions'),
      'Which product is the customer writing about?',
    );

    await waitFor(() =>
      expect(screen.getByTestId('taxonomy.summary')).toHaveTextContent(
        '600 labels read as a list. The first request chooses among 24 groups; a run takes at most 2 requests.',
      ),
    );
    const groups = screen.getAllByTestId('taxonomy.group');
    expect(
      groups.map(
        (g) =>
          within(g).getByText((_, el) => el?.classList.contains('taxonomy-group__name') ?? false).textContent,
      ),
    ).toEqual([...TAXONOMY_MATERIALS]);
    expect(groups[4]).toHaveTextContent('25 labels · automatic group');

    await user.click(screen.getByTestId('taxonomy.run'));
    expect(await screen.findByTestId('taxonomy.label', {}, { timeout: 10_000 })).toHaveTextContent(
      'Copper lantern',
    );
    const steps = screen.getAllByTestId('taxonomy.step');
    expect(steps.map((s) => s.dataset.choice)).toEqual(['Copper', 'Copper lantern']);
    expect(steps[0]).toHaveTextContent('First request, 24 options: Copper');
    expect(steps[1]).toHaveTextContent('Within Copper, 25 options: Copper lantern');
    const { result } = useTaxonomy.getState();
    expect(result!.steps.map((s) => s.request.state)).toEqual([
      useWorkbench.getState().doc.stateText,
      useWorkbench.getState().doc.stateText,
    ]);
    expect(result!.steps[0]!.request.questions.taxonomy!.instructions).toMatch(
      /^Which product is the customer writing about\?/,
    );
    expect(screen.getByTestId('taxonomy.cost')).toHaveTextContent(
      `2 requests · ${result!.inputTokens.toLocaleString('en-US')} input tokens · ≈ ${formatCost(estimateCost(result!.inputTokens))} · model model-1.13.0`,
    );
    // The final distribution is drawn by the answers' choice card: the chosen group's 25 labels.
    const final = screen.getByTestId('taxonomy.final');
    expect(within(final).getByTestId('answers.choice')).toHaveTextContent('Copper lantern');
    expect(within(final).getByRole('heading', { name: 'Within Copper' })).toBeInTheDocument();
  });

  it('keeps the pasted labels, the chosen reading and the instructions in the session document', async () => {
    const user = userEvent.setup();
    const { unmount } = render(withApp(<TaxonomyScreen targetId="local" resolveTarget={target()} />));
    await user.click(screen.getByTestId('taxonomy.input'));
    await user.paste('Wooden > stool\nGlass > vase');
    await user.selectOptions(screen.getByTestId('taxonomy.format'), 'paths');
    await user.type(screen.getByTestId('taxonomy.instructions'), 'Which product?');
    expect(useWorkbench.getState().doc.taxonomy).toEqual({
      text: 'Wooden > stool\nGlass > vase',
      format: 'paths',
      instructions: 'Which product?',
    });
    // A session opened later (a reload, an import, a share link) brings its taxonomy back to the screen.
    unmount();
    render(withApp(<TaxonomyScreen targetId="local" resolveTarget={target()} />));
    expect(screen.getByTestId('taxonomy.input')).toHaveValue('Wooden > stool\nGlass > vase');
    expect(screen.getByTestId('taxonomy.format')).toHaveValue('paths');
    expect(screen.getByTestId('taxonomy.instructions')).toHaveValue('Which product?');
  });

  it('reads a pasted tree by its paths and keeps its groups in the path', async () => {
    const user = userEvent.setup();
    useWorkbench.getState().setStateText('My wooden stool wobbles: one leg is shorter than the others.');
    render(withApp(<TaxonomyScreen targetId="local" resolveTarget={target()} />));
    await user.click(screen.getByTestId('taxonomy.input'));
    await user.paste(['Wooden > stool', 'Wooden > shelf', 'Glass > vase', 'Glass > jar'].join('\n'));
    expect(screen.getByTestId('taxonomy.summary')).toHaveTextContent(
      '4 labels read as a tree (paths) with 2 groups.',
    );
    await user.click(screen.getByTestId('taxonomy.run'));
    expect(await screen.findByTestId('taxonomy.labelPath', {}, { timeout: 10_000 })).toHaveTextContent(
      '(Wooden › stool)',
    );
  });

  it('will not run on a product-line model id, and shows the service’s refusal when the key is wrong', async () => {
    const user = userEvent.setup();
    useWorkbench.getState().setModel('model-1.13');
    const { unmount } = render(
      withApp(<TaxonomyScreen targetId="local" resolveTarget={target('wrong-key')} />),
    );
    await user.click(screen.getByTestId('taxonomy.input'));
    await user.paste('a\nb\nc');
    expect(screen.getByTestId('taxonomy.run')).toBeDisabled();
    expect(screen.getByTestId('taxonomy.status')).toHaveTextContent('product line');
    unmount();

    useWorkbench.getState().setModel('model-1.13.0');
    render(withApp(<TaxonomyScreen targetId="local" resolveTarget={target('wrong-key')} />));
    await user.click(screen.getByTestId('taxonomy.run'));
    expect(await screen.findByTestId('taxonomy.error', {}, { timeout: 10_000 })).toHaveTextContent('401');
    expect(screen.queryByTestId('taxonomy.label')).toBeNull();
  });
});
