// The editor adapter's fallback, the model picker, the problems list and the run error panel, each on its own.
import { TargetInfoSchema } from '../../../src/contract';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { CodeEditor, EditorEngineProvider, minimalEdit } from '../../../src/app/editor';
import { ModelPicker } from '../../../src/app/queries/ModelPicker';
import { ProblemsPanel } from '../../../src/app/features/workbench/ProblemsPanel';
import { RunErrorView } from '../../../src/app/features/answers/RunErrorView';
import { AttemptList } from '../../../src/app/features/answers/AttemptList';
import { createQueryClient } from '../../../src/app/queryClient';
import { modelsQueryOptions } from '../../../src/app/queries/models';
import { targetsQueryOptions } from '../../../src/app/queries/targets';
import { checkDoc } from '../../../src/core/runDraft';
import { exampleDoc } from '../../../src/core/example';
import { LineIndex } from '../../../src/core/locate';

describe('CodeEditor fallback', () => {
  it('is editable at once, runs on Ctrl+Enter and Cmd+Enter, and reports errors to assistive tech', async () => {
    const onRun = vi.fn();
    const onChange = vi.fn();
    const span = new LineIndex('{}').span(0, 1);
    render(
      <EditorEngineProvider value="plain">
        <CodeEditor
          documentId="questions"
          value="{}"
          onChange={onChange}
          language="json"
          onRun={onRun}
          ariaLabel="Questions, JSON"
          markers={[{ span, severity: 'error', message: 'bad', source: 'x' }]}
        />
      </EditorEngineProvider>,
    );
    const box = screen.getByRole('textbox', { name: 'Questions, JSON' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(box, 'x');
    expect(onChange).toHaveBeenLastCalledWith('{}x');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await userEvent.keyboard('{Meta>}{Enter}{/Meta}');
    expect(onRun).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('moves the caret to a revealed offset', () => {
    const text = '{\n  "a": 1,\n  "b": 2\n}';
    const { rerender } = render(
      <EditorEngineProvider value="plain">
        <CodeEditor
          documentId="q"
          value={text}
          onChange={() => {}}
          language="json"
          ariaLabel="Q"
          reveal={null}
        />
      </EditorEngineProvider>,
    );
    rerender(
      <EditorEngineProvider value="plain">
        <CodeEditor
          documentId="q"
          value={text}
          onChange={() => {}}
          language="json"
          ariaLabel="Q"
          reveal={{ offset: 14, nonce: 1 }}
        />
      </EditorEngineProvider>,
    );
    const box = screen.getByRole('textbox', { name: 'Q' }) as HTMLTextAreaElement;
    expect(box).toHaveFocus();
    expect(box.selectionStart).toBe(14);
  });
});

describe('minimalEdit', () => {
  it('replaces only what differs between two texts', () => {
    expect(minimalEdit('{"a": "noul"}', '{"a": "score"}')).toEqual({
      offset: 7,
      length: 4,
      content: 'score',
    });
    expect(minimalEdit('abc', 'abc')).toBeNull();
    expect(minimalEdit('aaa', 'aaaa')).toEqual({ offset: 3, length: 0, content: 'a' });
    expect(minimalEdit('abcd', 'ad')).toEqual({ offset: 1, length: 2, content: '' });
  });
});

describe('ModelPicker', () => {
  function renderPicker(value: string, onChange = vi.fn(), refusal?: string) {
    const client = createQueryClient();
    // Arrange the server state directly: the target's model list as the proxy would return it.
    client.setQueryData(modelsQueryOptions('local').queryKey, {
      models: [
        { name: 'model-latest', description: 'Current' },
        { name: 'model-preview', description: 'Next' },
      ],
    });
    render(
      <QueryClientProvider client={client}>
        <ModelPicker
          targetId="local"
          value={value}
          onChange={onChange}
          resolved="model-1.13.0"
          problem={refusal}
          refusedByService={refusal !== undefined}
        />
      </QueryClientProvider>,
    );
    return onChange;
  }

  it('offers the aliases, marks an alias as movable and offers to pin what it resolved to', async () => {
    const onChange = renderPicker('model-latest');
    const input = screen.getByRole('combobox', { name: 'Model' });
    const options = [
      ...document.querySelectorAll(`#${input.getAttribute('list')!.replace(/:/g, '\\:')} option`),
    ].map((o) => (o as HTMLOptionElement).value);
    expect(options).toEqual(['model-latest', 'model-preview']);
    expect(screen.getByTestId('workbench.modelKind')).toHaveTextContent('alias · moves');
    await userEvent.click(screen.getByRole('button', { name: 'Pin model-1.13.0' }));
    expect(onChange).toHaveBeenCalledWith('model-1.13.0');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('marks a versioned id the service refused as refused, not pinned, and leaves the sentence to the answers', () => {
    const sentence = 'The request failed validation (422) at model: unknown model id.';
    renderPicker('model-9.9.9', vi.fn(), sentence);
    expect(screen.getByTestId('workbench.modelKind')).toHaveTextContent('refused');
    const input = screen.getByRole('combobox', { name: 'Model' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    // Read out with the field, not printed under it a second time.
    expect(input).toHaveAccessibleDescription(sentence);
    expect(screen.getByTestId('workbench.modelProblem')).toHaveClass('visually-hidden');
  });

  it('offers the model file of a target that runs one, beside a lexical id, and says which judge it replaces', async () => {
    const client = createQueryClient();
    client.setQueryData(targetsQueryOptions().queryKey, [
      TargetInfoSchema.parse({
        id: 'local',
        label: 'Local reference (qwen.gguf, and the lexical judge)',
        kind: 'local',
        preset: 'local',
        host: 'in-process',
        evaluatePath: '/v1/evaluate',
        modelFile: { fileName: 'qwen.gguf', alias: 'local-qwen' },
      }),
    ]);
    client.setQueryData(modelsQueryOptions('local').queryKey, {
      models: [{ name: 'local-qwen' }, { name: 'model-latest' }, { name: 'model-preview' }],
    });
    const onChange = vi.fn();
    const { rerender } = render(
      <QueryClientProvider client={client}>
        <ModelPicker targetId="local" value="model-latest" onChange={onChange} />
      </QueryClientProvider>,
    );
    const offer = screen.getByRole('button', { name: 'Use qwen.gguf' });
    expect(offer).toHaveAttribute('title', expect.stringContaining('model-latest is the lexical judge'));
    await userEvent.click(offer);
    expect(onChange).toHaveBeenCalledWith('local-qwen');
    rerender(
      <QueryClientProvider client={client}>
        <ModelPicker targetId="local" value="local-qwen" onChange={onChange} />
      </QueryClientProvider>,
    );
    expect(screen.queryByTestId('workbench.useModelFile')).toBeNull();
  });

  it('accepts a typed versioned id and flags a product-line id', () => {
    renderPicker('model-1.12.0');
    expect(screen.getByTestId('workbench.modelKind')).toHaveTextContent('pinned');
    expect(screen.queryByTestId('workbench.modelProblem')).toBeNull();
  });

  it('flags model-1.13 as a product line, with the id to pin', () => {
    renderPicker('model-1.13');
    const input = screen.getByRole('combobox', { name: 'Model' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(/names a product line.*model-1\.13\.0/);
  });
});

describe('ProblemsPanel', () => {
  const boolDoc = { ...exampleDoc(), questionsText: '{\n  "x": {\n    "type": "boolean"\n  }\n}' };

  it('lists located problems with their fix, and after a refused run offers to send anyway', async () => {
    const checked = checkDoc(boolDoc);
    const onFix = vi.fn();
    const onReveal = vi.fn();
    const onSendAnyway = vi.fn();
    render(
      <ProblemsPanel
        problems={checked.problems}
        refused
        canSendAnyway
        onSendAnyway={onSendAnyway}
        onReveal={onReveal}
        onFix={onFix}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Not sent.');
    const item = screen.getAllByTestId('workbench.problem')[0]!;
    expect(item).toHaveTextContent('"boolean"');
    await userEvent.click(within(item).getByRole('button', { name: 'questions, line 3' }));
    expect(onReveal).toHaveBeenCalledWith(checked.problems[0]);
    await userEvent.click(within(item).getByRole('button', { name: 'Set the type to "noul"' }));
    expect(onFix).toHaveBeenCalledWith(checked.problems[0]);
    await userEvent.click(screen.getByRole('button', { name: 'Send anyway' }));
    expect(onSendAnyway).toHaveBeenCalled();
  });

  it('unparseable JSON cannot be sent anyway', () => {
    const checked = checkDoc({ ...exampleDoc(), questionsText: '{' });
    render(
      <ProblemsPanel
        problems={checked.problems}
        refused
        canSendAnyway={false}
        onSendAnyway={() => {}}
        onReveal={() => {}}
        onFix={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('does not parse');
    expect(screen.queryByRole('button', { name: 'Send anyway' })).toBeNull();
  });
});

describe('RunErrorView and attempts', () => {
  it('a 422 with a located field says its sentence once, beside the field that opens its line', async () => {
    const onReveal = vi.fn();
    const msg = 'Input should be "noul", "choice" or "score"';
    render(
      <RunErrorView
        error={{
          kind: 'validation',
          status: 422,
          message: `The request failed validation at questions.is_urgent.type: ${msg}.`,
          fieldErrors: [{ loc: ['questions', 'is_urgent', 'type'], msg }],
          possiblyBilled: false,
        }}
        targetLabel="local"
        onReveal={onReveal}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent!.split(msg)).toHaveLength(2);
    expect(alert).toHaveTextContent('The service refused one field of the request.');
    await userEvent.click(screen.getByRole('button', { name: 'questions.is_urgent.type' }));
    expect(onReveal).toHaveBeenCalledWith(['questions', 'is_urgent', 'type']);
  });

  it('a 401 says the key for that target is missing or wrong', () => {
    render(
      <RunErrorView
        error={{
          kind: 'auth',
          status: 401,
          message: 'The service did not accept the API key (401).',
          fieldErrors: [],
          possiblyBilled: false,
        }}
        targetLabel="direct (api.example.com)"
        onReveal={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The API key for direct (api.example.com) is missing or wrong',
    );
  });

  it('a timeout says the outcome is unknown and may have been billed', () => {
    render(
      <RunErrorView
        error={{ kind: 'timeout', message: 'No answer within 30 s.', fieldErrors: [], possiblyBilled: true }}
        targetLabel="t"
        onReveal={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('may have evaluated, and billed');
    expect(screen.getByRole('alert')).toHaveTextContent('Some attempts may have been evaluated and billed.');
  });

  it('a 422 lists each field error as a link to its line', async () => {
    const onReveal = vi.fn();
    render(
      <RunErrorView
        error={{
          kind: 'validation',
          status: 422,
          message: 'Refused.',
          fieldErrors: [{ loc: ['questions', 'x', 'type'], msg: 'use noul' }],
          possiblyBilled: false,
        }}
        targetLabel="t"
        onReveal={onReveal}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'questions.x.type' }));
    expect(onReveal).toHaveBeenCalledWith(['questions', 'x', 'type']);
  });

  it('429 retries show each status, its delay and the request id', () => {
    render(
      <AttemptList
        running={false}
        attempts={[
          { attempt: 0, outcome: 429, durationMs: 12, retryInMs: 500, requestId: 'req_a' },
          { attempt: 1, outcome: 529, durationMs: 9, retryInMs: 1000, requestId: 'req_b' },
          { attempt: 2, outcome: 200, durationMs: 15, requestId: 'req_c' },
        ]}
      />,
    );
    const rows = screen
      .getAllByTestId('answers.attempt')
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['1', '429', '12 ms', 'retry in 500 ms', 'req_a'],
      ['2', '529', '9 ms', 'retry in 1.00 s', 'req_b'],
      ['3', '200', '15 ms', '', 'req_c'],
    ]);
  });
});
