// The get-code dialog: the exact request on screen in three languages, copied through the app's clipboard module, with
// the target's base URL and never a key.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_REQUEST, exampleDoc } from '../../../src/core/example';
import { requestToCurl, requestToPython, requestToTypeScript } from '../../../src/core/codegen';
import { DIRECT_TARGET, LOCAL_TARGET, newUserDoc, renderWorkbench } from '../lint/workbenchHarness';

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Get code' }));
  // The dialog's code loads on first use (React.lazy): its first import is transformed then, a ceiling not a speed.
  return screen.findByRole('dialog', { name: 'Get code' }, { timeout: 10_000 });
}

describe('Get code', () => {
  it('shows the exact request as curl for the local reference on port 8787, and Copy writes it', async () => {
    // userEvent's setup gives the page a clipboard (jsdom has none), which the app's clipboard module writes to.
    const user = userEvent.setup();
    renderWorkbench(exampleDoc(), [LOCAL_TARGET]);
    const dialog = await openDialog(user);
    const target = { baseUrl: 'http://127.0.0.1:8787', evaluatePath: '/v1/evaluate' };
    const code = within(dialog).getByTestId('getCode.code');
    expect(code.textContent).toBe(requestToCurl(EXAMPLE_REQUEST, target));
    expect(within(dialog).getByTestId('getCode.url')).toHaveTextContent('http://127.0.0.1:8787/v1/evaluate');
    expect(within(dialog).getByTestId('getCode.setup')).toHaveTextContent('npm run reference -- --port 8787');
    expect(within(dialog).getByTestId('getCode.retry')).toHaveTextContent('at most 2');
    expect(within(dialog).getByTestId('getCode.retry')).toHaveTextContent('Never after 401 or 422');

    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(requestToCurl(EXAMPLE_REQUEST, target));
    expect(within(dialog).getByTestId('getCode.copyStatus')).toHaveTextContent('Copied.');

    await user.click(within(dialog).getByRole('radio', { name: 'TypeScript' }));
    expect(code.textContent).toBe(requestToTypeScript(EXAMPLE_REQUEST, target));
    expect(within(dialog).getByTestId('getCode.copyStatus')).toHaveTextContent('');
    await user.click(within(dialog).getByRole('radio', { name: 'Python' }));
    expect(code.textContent).toBe(requestToPython(EXAMPLE_REQUEST, target));
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(requestToPython(EXAMPLE_REQUEST, target));

    // Escape closes it (focus put back inside first: jsdom's clicks land on the resizable panes' handle).
    within(dialog).getByRole('button', { name: 'Close' }).focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends code for a proxy target to its upstream host, with the key from $EVAL_API_KEY', async () => {
    const user = userEvent.setup();
    renderWorkbench({ ...exampleDoc(), targetId: 'direct' }, [DIRECT_TARGET, LOCAL_TARGET]);
    const dialog = await openDialog(user);
    const code = within(dialog).getByTestId('getCode.code').textContent!;
    expect(code).toBe(
      requestToCurl(EXAMPLE_REQUEST, { baseUrl: 'https://api.example.com', evaluatePath: '/v1/evaluate' }),
    );
    expect(code).toContain('${EVAL_API_KEY:?');
    expect(code).not.toContain('/api/targets');
    expect(within(dialog).getByTestId('getCode.setup')).not.toHaveTextContent('npm run reference');
  });

  it('warns when the request has errors, and has nothing to show while the editors do not parse', async () => {
    const user = userEvent.setup();
    const doc = newUserDoc();
    const first = renderWorkbench({
      ...doc,
      questionsText: doc.questionsText.replace('"noul"', '"boolean"'),
    });
    let dialog = await openDialog(user);
    expect(within(dialog).getByRole('note')).toHaveTextContent('the service will answer 422');
    expect(within(dialog).getByTestId('getCode.code')).toHaveTextContent('"type": "boolean"');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    first.unmount();

    renderWorkbench({ ...doc, questionsText: '{ "a": ' });
    dialog = await openDialog(user);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('do not hold JSON yet');
    expect(within(dialog).queryByRole('button', { name: 'Copy' })).toBeNull();
  });
});
