// A conversation as the state, as a user meets it: an Anthropic transcript with a refund tool call pasted, judged on
// the local reference (rendered as a transcript) and side by side with a Decisions-dialect target that reads the
// conversation natively, then a reload that keeps it all. The Decisions server is a stand-in (docs/dialects.md).
import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_FIELD } from '../../src/contract';
import { recogniseTranscript } from '../../src/core/conversation/recognise';
import { renderConversation } from '../../src/core/conversation/render';
import { serveDecisionsStandin } from '../helpers/standins/decisionsServer';
import type { RunningStandin } from '../helpers/standins/dialectListen';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { CompareArea } from './pages/CompareArea';
import { ConversationArea } from './pages/ConversationArea';
import { RowsArea } from './pages/RowsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const KEY = `conversations-${Math.random().toString(36).slice(2)}`;
let luna: RunningStandin;
let workbench: WorkbenchProcess;

beforeAll(async () => {
  luna = await serveDecisionsStandin({ apiKey: KEY, models: { 'model-1.13.0': 'model-1.13.0' } });
  workbench = await startWorkbenchProcess({
    EVAL_GATEWAY_URL: luna.url,
    EVAL_GATEWAY_KEY: KEY,
    EVAL_GATEWAY_EVALUATE_PATH: '/v1/decisions',
    EVAL_GATEWAY_DIALECT: 'decisions',
  });
});
afterAll(async () => {
  await workbench?.stop();
  await luna?.close();
});

const browser = useBrowser();

const TRANSCRIPT = JSON.stringify({
  system: 'You are a support agent for an online shop.',
  messages: [
    { role: 'user', content: 'My parcel never came. I want my money back for order 7.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me refund that order.' },
        { type: 'tool_use', id: 'toolu_refund_1', name: 'issue_refund', input: { order: 7 } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_refund_1', content: 'refunded 24.90 EUR' }],
    },
    { role: 'assistant', content: 'Your refund of 24.90 EUR is on its way.' },
  ],
});
const QUESTIONS = JSON.stringify(
  {
    refund_after_tool: {
      type: 'noul',
      instructions: 'Did the assistant promise the refund only after the issue_refund tool confirmed it?',
    },
    tone: {
      type: 'choice',
      instructions: 'What is the tone of the assistant in the conversation?',
      criteria: { helpful: 'Helpful and clear', curt: 'Curt or dismissive' },
    },
  },
  null,
  2,
);

/** The bodies the page sent to the proxy, by target id. */
function sentBodies(page: Page): Map<string, Record<string, unknown>> {
  const sent = new Map<string, Record<string, unknown>>();
  page.on('request', (request: Request) => {
    const match = /\/api\/targets\/([^/]+)\/v1\/evaluate$/.exec(new URL(request.url()).pathname);
    if (match && request.method() === 'POST')
      sent.set(match[1]!, request.postDataJSON() as Record<string, unknown>);
  });
  return sent;
}

describe('a conversation as the state', () => {
  it('pastes an Anthropic transcript, judges it on the local target and beside a Decisions target, and keeps it', async () => {
    const page = browser.page();
    const sent = sentBodies(page);
    const bench = new WorkbenchPage(page, workbench.url);
    await bench.open();
    await bench.shell.selectTarget('local');
    await bench.editor.waitReady();
    await bench.editor.replaceText('questions', QUESTIONS);
    await bench.editor.model.fill('model-1.13.0');
    await bench.editor.model.press('Tab');

    const conversation = new ConversationArea(page);
    await conversation.choose();
    expect(await conversation.paste(TRANSCRIPT)).toBe(
      'Found an Anthropic Messages transcript of 4 messages and a system prompt: 4 messages (1 system, 1 user, 2 assistant), 1 tool call and 1 tool output (tool_use and tool_result blocks become tool calls and outputs).',
    );
    const expected = recogniseTranscript(TRANSCRIPT);
    if (!expected.ok) throw new Error('the transcript should read');

    // The local reference takes the interface's form: the rendered transcript is the state.
    await bench.editor.run.click();
    await bench.answers.waitAnswered();
    expect((await bench.answers.cardList()).map((c) => c.name)).toEqual(['refund_after_tool', 'tone']);
    const local = sent.get('local')!;
    expect(local.state).toBe(renderConversation(expected.conversation));
    expect(local[CONVERSATION_FIELD]).toEqual(expected.conversation);

    // Side by side with the Decisions target: it receives the conversation itself as its input.
    const compare = new CompareArea(page);
    await compare.open();
    await compare.setColumn(0, 'local', 'model-1.13.0');
    await compare.setColumn(1, 'gateway', 'model-1.13.0');
    await compare.runAll.click();
    await compare.waitPhase(0, 'answered');
    await compare.waitPhase(1, 'answered');
    const native = luna.received.at(-1) as { input: unknown; questions: { name: string }[] };
    expect(native.input).toEqual(expected.conversation);
    expect(native).not.toHaveProperty(CONVERSATION_FIELD);
    expect(native.questions.map((q) => q.name)).toEqual(['refund_after_tool', 'tone']);
    expect((await compare.questionNames()).sort()).toEqual(['refund_after_tool', 'tone']);

    // A reload keeps the conversation, its turns and the comparison's answers.
    await page.reload();
    await compare.columns.first().waitFor();
    await expect
      .poll(async () => (await compare.questionNames()).sort())
      .toEqual(['refund_after_tool', 'tone']);
    // Back to the answers: the editors return, and the state is still the conversation, turn by turn.
    await compare.modeSwitch.getByRole('radio', { name: 'Answers' }).check();
    await bench.editor.waitReady();
    expect(await conversation.isChosen()).toBe(true);
    await conversation.view('Chat');
    await expect.poll(() => conversation.turns.count()).toBe(expected.conversation.length);
    expect(await conversation.turns.nth(3).textContent()).toContain('Tool call: issue_refund');
  });

  it('shows a pasted OpenAI chat with a tool call whole: the sentence, the messages and their text (issue 30 items 1-3)', async () => {
    const page = browser.page();
    await page.setViewportSize({ width: 1440, height: 900 });
    const bench = new WorkbenchPage(page, workbench.url);
    await bench.open();
    await bench.shell.selectTarget('local');
    await bench.editor.waitReady();
    const conversation = new ConversationArea(page);
    await conversation.choose();
    const long = 'My parcel never came and I have written three times already. '.repeat(4).trim();
    const chat = {
      messages: [
        { role: 'system', content: 'You are a support agent for an online shop.' },
        { role: 'user', content: long },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'issue_refund', arguments: '{"order": 7, "amount": "24.90 EUR"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"status": "refunded", "amount": "24.90 EUR"}' },
        { role: 'assistant', content: 'Your refund of 24.90 EUR is on its way.' },
      ],
    };
    // The dialog fits its width: nothing of its text box or file input is cut at the right edge.
    await page.getByTestId('conversation.paste').click();
    const dialog = page.getByTestId('conversation.pasteDialog');
    await dialog.waitFor();
    const fits = await dialog.evaluate((d) => {
      const box = d.getBoundingClientRect();
      return (
        [...d.querySelectorAll('p, textarea, input, label')].every(
          (e) => e.getBoundingClientRect().right <= box.right + 0.5,
        ) && d.scrollWidth <= d.clientWidth
      );
    });
    expect(fits).toBe(true);
    await page.getByTestId('conversation.pasteText').fill(JSON.stringify(chat));
    await page.getByRole('button', { name: 'Use as the state' }).click();

    // The sentence counts what was pasted: 5 messages, read as 3 messages, a tool call and its output.
    await conversation.found.waitFor();
    expect(await conversation.found.locator('span').first().textContent()).toBe(
      'Found an OpenAI Chat Completions list of 5 messages: 3 messages (1 system, 1 user, 1 assistant), 1 tool call and 1 tool output.',
    );
    const inView = (locator: Locator) =>
      locator.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
      });
    expect(await inView(conversation.found)).toBe(true);
    // The controls take one line; the conversation gets the room: at least 12 lines of its JSON show.
    expect((await conversation.bar.boundingBox())!.height).toBeLessThan(48);
    expect((await bench.editor.visibleLines('state')).length).toBeGreaterThanOrEqual(12);

    // The chat view: every turn shows its whole text, tool call and output included, and the view scrolls.
    await conversation.view('Chat');
    await expect.poll(() => conversation.turns.count()).toBe(5);
    const boxes = page.locator('.chat-turn__text');
    const whole = await boxes.evaluateAll((areas) =>
      areas.map(
        (a) => (a as HTMLTextAreaElement).scrollHeight <= (a as HTMLTextAreaElement).clientHeight + 2,
      ),
    );
    expect(whole).toEqual([true, true, true, true, true]);
    expect(await boxes.nth(1).inputValue()).toBe(long);
    expect(await boxes.nth(2).inputValue()).toBe('{"order": 7, "amount": "24.90 EUR"}');
    expect(await inView(conversation.turns.first())).toBe(true);
    const chatView = page.getByTestId('conversation.chat');
    await conversation.turns.last().scrollIntoViewIfNeeded();
    expect(await inView(conversation.turns.last())).toBe(true);
    expect(await chatView.evaluate((v) => getComputedStyle(v).overflowY)).toBe('auto');
  });

  it('runs a JSON Lines file of 200 agent traces with a label column, and exports one line per trace', async () => {
    const page = browser.page();
    const bench = new WorkbenchPage(page, workbench.url);
    await bench.open();
    await bench.shell.selectTarget('local');
    await bench.editor.waitReady();
    await bench.editor.replaceText('questions', QUESTIONS);
    const transcript = JSON.parse(TRANSCRIPT) as { messages: { role: string; content: unknown }[] };
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        id: `trace-${i + 1}`,
        // Each trace its own: the order number changes, so no two rows are one request.
        trace: {
          ...transcript,
          messages: [
            { role: 'user', content: `Order ${i + 1} never came; refund it.` },
            ...transcript.messages.slice(1),
          ],
        },
        human: i % 3 === 0 ? 'no' : 'yes',
      }),
    );
    const rows = new RowsArea(page);
    await rows.open();
    await rows.pick('traces.jsonl', `${lines.join('\n')}\n`);
    await page.getByTestId('rows.mapping.mode').getByLabel('One column as a conversation').check();
    await page.getByTestId('rows.mapping.conversation').selectOption('trace');
    await page.getByTestId('rows.labels.column.refund_after_tool').selectOption('human');
    await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe('200');
    // The label column never reaches the state: the samples hold the rendered transcript only. They come from the
    // plan, which the worker makes again after the mapping changes: wait for the conversation's.
    const samples = page.getByTestId('rows.samples');
    await expect.poll(() => samples.textContent()).toContain('Tool call issue_refund');
    expect(await samples.textContent()).not.toMatch(/human/);
    await rows.start.click();
    await rows.waitFinished(120_000);
    expect(await rows.count('done')).toBe(200);

    const exported = await rows.export('jsonl');
    const out = exported.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(200);
    out.forEach((row, i) => {
      expect(row.row_id).toBe(`trace-${i + 1}`);
      expect(row.status).toBe('done');
      expect(JSON.stringify(row)).toContain(i % 3 === 0 ? '"no"' : '"yes"');
    });
  });
});
