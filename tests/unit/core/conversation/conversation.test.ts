// Conversations as the state: each transcript format read from its own documentation's example, the editor's checks
// on their lines, the rendering rule, and the proxy's wire: native `input` for a Decisions target, the rendered state
// (and no extra field) for a target of the interface's form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_FIELD,
  ConversationSchema,
  incoming,
  outgoing,
  PLAIN_WIRE,
} from '../../../../src/contract';
import type { Conversation } from '../../../../src/contract';
import { checkConversation } from '../../../../src/core/conversation/check';
import { recogniseTranscript } from '../../../../src/core/conversation/recognise';
import { renderConversation } from '../../../../src/core/conversation/render';
import { turnList, turnsToDrop } from '../../../../src/core/conversation/fit';
import { LAST_TURN_PREFIX } from '../../../../src/core/conversation/scope';
import { countTokens, requestTokens } from '../../../../src/contract/tokens';

/** The tokenizer as the page hands it to the checks once loaded. */
const TOKENS = {
  request: (r: Parameters<typeof requestTokens>[0]) => requestTokens(r).total,
  text: countTokens,
};
import { mapRow, RowMappingSchema } from '../../../../src/core/rows/mapping';
import { planRun } from '../../../../src/core/rows/runPlan';
import { checkDoc } from '../../../../src/core/runDraft';
import { exampleDoc } from '../../../../src/core/example';

const WEATHER: Conversation = [
  { role: 'user', content: "What's the weather like in Paris today?" },
  {
    type: 'function_call',
    call_id: 'call_12345xyz',
    name: 'get_weather',
    arguments: '{"location":"Paris, France"}',
  },
  { type: 'function_call_output', call_id: 'call_12345xyz', output: '{"temperature": 14}' },
  { role: 'assistant', content: 'It is 14 degrees in Paris.' },
];

describe('transcripts recognised by shape', () => {
  it("reads OpenAI's Chat Completions function-calling example, tool_calls and tool messages included", () => {
    // platform.openai.com/docs/guides/function-calling: the assistant's tool_calls, then a `tool` message by id.
    const messages = [
      { role: 'user', content: "What's the weather like in Paris today?" },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_12345xyz',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_12345xyz', content: '{"temperature": 14}' },
      { role: 'assistant', content: 'It is 14 degrees in Paris.' },
    ];
    const read = recogniseTranscript(JSON.stringify({ messages }));
    expect(read).toEqual({
      ok: true,
      conversation: WEATHER,
      sentence:
        'Found an OpenAI Chat Completions list of 4 messages: 2 messages (1 user, 1 assistant), 1 tool call and 1 tool output.',
    });
  });

  it("reads Anthropic's tool-use example: text and tool_use blocks, then a tool_result by tool_use_id", () => {
    // docs.anthropic.com/en/docs/build-with-claude/tool-use: the @anthropic-ai/sdk MessageParam shapes.
    const transcript = {
      system: 'You are a support agent.',
      messages: [
        { role: 'user', content: 'What is the weather like in San Francisco?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'I will check the weather.' },
            {
              type: 'tool_use',
              id: 'toolu_01A09q90qw90lq917835lq9',
              name: 'get_weather',
              input: { location: 'San Francisco, CA', unit: 'celsius' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '15 degrees' },
          ],
        },
      ],
    };
    const read = recogniseTranscript(JSON.stringify(transcript));
    expect(read.ok && read.conversation).toEqual([
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'What is the weather like in San Francisco?' },
      { role: 'assistant', content: 'I will check the weather.' },
      {
        type: 'function_call',
        call_id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: '{"location":"San Francisco, CA","unit":"celsius"}',
      },
      { type: 'function_call_output', call_id: 'toolu_01A09q90qw90lq917835lq9', output: '15 degrees' },
    ]);
    expect(read.sentence).toBe(
      'Found an Anthropic Messages transcript of 3 messages and a system prompt: 3 messages (1 system, 1 user, 1 assistant), 1 tool call and 1 tool output (tool_use and tool_result blocks become tool calls and outputs).',
    );
  });

  it('reads a Responses input list, dropping the ids and statuses an export adds', () => {
    const items = [
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: "What's the weather like in Paris today?" }],
      },
      {
        type: 'function_call',
        id: 'fc_12345xyz',
        call_id: 'call_12345xyz',
        name: 'get_weather',
        arguments: '{"location":"Paris, France"}',
        status: 'completed',
      },
      { type: 'function_call_output', call_id: 'call_12345xyz', output: '{"temperature": 14}' },
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'It is 14 degrees in Paris.', annotations: [] }],
      },
    ];
    const read = recogniseTranscript(JSON.stringify({ input: items }));
    expect(read.ok).toBe(true);
    expect(read.ok && read.conversation[1]).toEqual(WEATHER[1]);
    expect(read.ok && read.conversation[3]).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'It is 14 degrees in Paris.' }],
    });
    expect(read.sentence).toBe(
      'Found an OpenAI Responses or Decisions input list: 2 messages (1 user, 1 assistant), 1 tool call and 1 tool output.',
    );
  });

  it("reads OpenTelemetry GenAI spans (OTLP JSON) from the semantic conventions' tool-call example, the latest span", () => {
    const input = [
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool_call',
            id: 'call_VSPygqKTWdrhaFErNvMV18Yl',
            name: 'get_weather',
            arguments: { location: 'Paris' },
          },
        ],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: 'call_VSPygqKTWdrhaFErNvMV18Yl', response: 'rainy, 57°F' }],
      },
    ];
    const output = [
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'The weather in Paris is currently rainy with a temperature of 57°F.' },
        ],
        finish_reason: 'stop',
      },
    ];
    const span = (name: string, end: string, messages: unknown[], out: unknown[]) => ({
      name,
      endTimeUnixNano: end,
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify(messages) } },
        { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify(out) } },
      ],
    });
    const otlp = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span('chat gpt-4o', '2000', input, output),
                span('chat gpt-4o', '1000', input.slice(0, 1), [input[1]]),
                { name: 'execute_tool get_weather', endTimeUnixNano: '1500', attributes: [] },
              ],
            },
          ],
        },
      ],
    };
    const read = recogniseTranscript(JSON.stringify(otlp));
    expect(read.ok && read.conversation).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        type: 'function_call',
        call_id: 'call_VSPygqKTWdrhaFErNvMV18Yl',
        name: 'get_weather',
        arguments: '{"location":"Paris"}',
      },
      { type: 'function_call_output', call_id: 'call_VSPygqKTWdrhaFErNvMV18Yl', output: 'rainy, 57°F' },
      { role: 'assistant', content: 'The weather in Paris is currently rainy with a temperature of 57°F.' },
    ]);
    expect(read.sentence).toBe(
      'Found an OpenTelemetry GenAI span "chat gpt-4o", the latest of 2 spans with messages: 2 messages (1 user, 1 assistant), 1 tool call and 1 tool output.',
    );
  });

  it('anything else gets a sentence and no conversation', () => {
    for (const text of [
      'not json',
      '{"state": "hello"}',
      '[1, 2]',
      '{"messages": [{"role": "robot", "content": "x"}]}',
    ]) {
      const read = recogniseTranscript(text);
      expect(read.ok).toBe(false);
      expect(read.sentence).toMatch(/^(This is not a transcript|.*Nothing was changed\.)/);
    }
  });
});

describe('the conversation editor', () => {
  it('marks a tool output whose call id matches no call on its own line', () => {
    const text = JSON.stringify(
      [WEATHER[0], { type: 'function_call_output', call_id: 'call_missing', output: 'x' }],
      null,
      2,
    );
    const checked = checkConversation(text);
    expect(checked.ok).toBe(false);
    const [problem] = checked.ok ? [] : checked.problems;
    expect(problem!.loc).toEqual([1, 'call_id']);
    expect(problem!.message).toBe(
      'This tool output answers the call "call_missing", but no tool call before it has that id.',
    );
    expect(text.split('\n')[problem!.span.start.line - 1]).toContain('"call_id": "call_missing"');
  });

  it('sends the rendered state with the conversation beside it, and blocks a malformed one with its line', () => {
    const doc = {
      ...exampleDoc(),
      stateMode: 'conversation' as const,
      stateText: JSON.stringify(WEATHER, null, 2),
    };
    const checked = checkDoc(doc);
    expect(checked.draft.request?.state).toBe(renderConversation(WEATHER));
    expect(checked.draft.body?.[CONVERSATION_FIELD]).toEqual(WEATHER);
    const broken = checkDoc({ ...doc, stateText: '[{"role": "user"}]' });
    expect(broken.blocked).toBe(true);
    expect(broken.problems[0]).toMatchObject({ area: 'state', source: 'conversation' });
  });
});

describe('the rendering rule', () => {
  it('writes one line per turn, or the whole and the last assistant turn as fields', () => {
    expect(renderConversation(WEATHER)).toBe(
      [
        "User: What's the weather like in Paris today?",
        'Tool call get_weather({"location":"Paris, France"}) [call_12345xyz]',
        'Tool output [call_12345xyz]: {"temperature": 14}',
        'Assistant: It is 14 degrees in Paris.',
      ].join('\n'),
    );
    expect(renderConversation(WEATHER, { kind: 'fields' })).toEqual({
      conversation: renderConversation(WEATHER),
      last_assistant_turn: 'It is 14 degrees in Paris.',
    });
  });
});

const itemArb = fc.oneof(
  fc.record({
    role: fc.constantFrom('system' as const, 'developer' as const, 'user' as const),
    content: fc.string(),
  }),
  fc.record({ role: fc.constant('assistant' as const), content: fc.string() }),
);

describe('the wire', () => {
  const body = (conversation: Conversation) =>
    JSON.stringify({
      state: renderConversation(conversation),
      model: 'm',
      questions: { ok: { type: 'noul', instructions: 'Was the refund promised after the tool call?' } },
      [CONVERSATION_FIELD]: conversation,
    });

  it('a Decisions target receives the conversation unchanged as its input; the interface form never sees the field', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 8 }), (conversation) => {
        const decisions = outgoing(
          { dialect: 'decisions', envelope: 'none', modelInPath: false },
          '/v1/decisions',
          body(conversation),
        );
        expect(decisions.ok).toBe(true);
        const sent = JSON.parse(decisions.ok ? decisions.body : '{}');
        expect(ConversationSchema.parse(sent.input)).toEqual(conversation);
        expect(sent).not.toHaveProperty(CONVERSATION_FIELD);
        const plain = outgoing(PLAIN_WIRE, '/v1/evaluate', body(conversation));
        const s1 = JSON.parse(plain.ok ? plain.body : '{}');
        expect(s1).toEqual({
          state: renderConversation(conversation),
          model: 'm',
          questions: expect.any(Object),
        });
      }),
      { numRuns: 50 },
    );
    // The traced weather call goes natively too, tool call and output included.
    const sent = outgoing(
      { dialect: 'decisions', envelope: 'none', modelInPath: false },
      '/v1/decisions',
      body(WEATHER),
    );
    expect(sent.ok && JSON.parse(sent.body).input).toEqual(WEATHER);
  });

  it('refuses a carried conversation that is not one, naming the field', () => {
    const out = outgoing(
      PLAIN_WIRE,
      '/v1/evaluate',
      JSON.stringify({ state: 's', model: 'm', questions: {}, [CONVERSATION_FIELD]: [{ role: 'robot' }] }),
    );
    expect(out.ok).toBe(false);
    expect(!out.ok && out.status).toBe(422);
  });
});

describe('lint rules of a conversation', () => {
  const doc = (instructions: string) => ({
    ...exampleDoc(),
    stateMode: 'conversation' as const,
    stateText: JSON.stringify(WEATHER),
    questionsText: JSON.stringify({ q: { type: 'noul', instructions } }),
  });
  const found = (instructions: string, rule: string) =>
    checkDoc(doc(instructions))
      .problems.filter((p) => p.source === rule)
      .map((p) => p.message);

  it('warns when a question names a tool the conversation never calls, and not for one it calls', () => {
    expect(
      found(
        'Did the agent call the `issue_refund` tool before promising a refund?',
        'conversation/unknown-tool',
      ),
    ).toEqual([
      '"q" asks about the tool "issue_refund", but the conversation never calls it (it calls get_weather).',
    ]);
    expect(found('Did the agent call the refund tool first?', 'conversation/unknown-tool')).toHaveLength(1);
    expect(
      found('Did the agent use the weather tool before answering?', 'conversation/unknown-tool'),
    ).toEqual([]);
    expect(found('Did the agent call `get_weather` before answering?', 'conversation/unknown-tool')).toEqual(
      [],
    );
    expect(found('Did the agent use a tool before answering?', 'conversation/unknown-tool')).toEqual([]);
  });

  it('says "the text" is a conversation here, only when the state is one', () => {
    expect(found('Is the text polite?', 'conversation/the-text')).toEqual([
      '"q" says "the text", but the state is a conversation: say "the conversation" or "the assistant\'s last turn".',
    ]);
    expect(found('Is the conversation polite?', 'conversation/the-text')).toEqual([]);
    const text = { ...doc('Is the text polite?'), stateMode: 'text' as const, stateText: 'Hello' };
    expect(checkDoc(text).problems.filter((p) => p.source === 'conversation/the-text')).toEqual([]);
  });
});

describe('a conversation longer than the target', () => {
  it('names the oldest turns to drop, after the opening system message, a tool call with its output', () => {
    const long = 'The parcel never arrived and I want my money back. '.repeat(40);
    const conversation: Conversation = [
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: long },
      { type: 'function_call', call_id: 'c1', name: 'lookup_order', arguments: '{"id": 7}' },
      { type: 'function_call_output', call_id: 'c1', output: long },
      { role: 'user', content: long },
      { role: 'assistant', content: 'I have issued the refund.' },
    ];
    const doc = {
      ...exampleDoc(),
      stateMode: 'conversation' as const,
      stateText: JSON.stringify(conversation),
    };
    const total = requestTokens(checkDoc(doc).draft.request!).total;
    const small = { label: 'Small', limits: { contextTokens: total - 100 }, tokens: TOKENS };
    const [problem] = checkDoc(doc, [], [], { mode: 'single' }, small).problems.filter(
      (p) => p.source === 'target',
    );
    expect(problem!.message).toContain(
      'Dropping turn 2 (the oldest after the opening instructions) would make it fit.',
    );
    expect(turnsToDrop(conversation, 800, countTokens)).toEqual([1, 2, 3]);
    expect(turnsToDrop(conversation, 1_000, countTokens)).toEqual([1, 2, 3, 4]);
    expect(turnList([1, 2, 3, 5])).toBe('turns 2-4 and 6');
    // Nothing can go when only the judged turn is left to drop.
    expect(turnsToDrop(conversation, 1e6, countTokens)).toEqual([]);
  });
});

describe('a file of conversations', () => {
  const anthropic = JSON.stringify({
    messages: [
      { role: 'user', content: 'Refund order 7, please.' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'issue_refund', input: { order: 7 } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'refunded' }] },
      { role: 'assistant', content: 'Your refund is on its way.' },
    ],
  });

  it('maps a column of transcripts to the rendered state and the conversation, never the label column', () => {
    const mapping = RowMappingSchema.parse({
      mode: 'conversation',
      column: 'trace',
      idColumn: 'id',
      labels: [{ column: 'human', question: 'promised', levelBase: 0, values: {} }],
    });
    const mapped = mapRow({ id: 't1', trace: anthropic, human: 'yes' }, mapping);
    expect(mapped.ok).toBe(true);
    if (!mapped.ok) return;
    expect(mapped.conversation).toHaveLength(4);
    expect(mapped.state).toBe(renderConversation(mapped.conversation!));
    expect(String(mapped.state)).not.toContain('yes');
    // A JSON Lines row may hold the transcript as a value rather than text.
    const asValue = mapRow({ id: 't2', trace: JSON.parse(anthropic) }, mapping);
    expect(asValue.ok && asValue.conversation).toEqual(mapped.conversation);
    const bad = mapRow({ id: 't3', trace: 'just words' }, mapping);
    expect(bad).toEqual({ ok: false, reason: 'The field `trace` is not JSON, so it holds no conversation.' });
  });

  it('plans rows that carry their conversation, so the runner can send it to a Decisions target', () => {
    const rows = [
      { number: 1, line: 2, data: { id: 't1', trace: anthropic } },
      { number: 2, line: 3, data: { id: 't2', trace: '[1]' } },
    ];
    const counter = { stateTokens: () => 10, questionTokens: () => 5 };
    const plan = planRun(
      rows,
      { mode: 'conversation', column: 'trace', rule: { kind: 'fields' }, idColumn: 'id' },
      { q: { type: 'noul', instructions: 'Was a refund promised?' } },
      counter,
    );
    expect(plan.rows).toHaveLength(1);
    expect(plan.rows[0]!.conversation).toHaveLength(4);
    expect(plan.rows[0]!.state).toMatchObject({ last_assistant_turn: 'Your refund is on its way.' });
    expect(plan.issues.map((i) => i.line)).toEqual([3]);
  });
});

describe('the answer of a Decisions target to a conversation', () => {
  it('is read back into the interface form, by the question names of the request that carried the conversation', () => {
    const wire = { dialect: 'decisions' as const, envelope: 'none' as const, modelInPath: false };
    const sent = JSON.stringify({
      state: renderConversation(WEATHER),
      model: 'm',
      questions: { hot: { type: 'noul', instructions: 'Is it hot?' } },
      [CONVERSATION_FIELD]: WEATHER,
    });
    const answer = JSON.stringify({
      model: 'm',
      answers: [{ type: 'predicate', name: 'hot', probability: 0.25 }],
      usage: { input_tokens: 40, output_tokens: 0, total_tokens: 40 },
    });
    const read = incoming(wire, { status: 200, headers: {}, body: answer }, sent, { normalise: true });
    expect(read.problem).toBeUndefined();
    expect(JSON.parse(read.body).answers).toEqual({ hot: { type: 'noul', noul: 0.25 } });
  });
});

describe('a question asked of the last assistant turn', () => {
  it('says so in its instructions, for every target alike; the other questions stay as written', () => {
    const doc = {
      ...exampleDoc(),
      stateMode: 'conversation' as const,
      stateText: JSON.stringify(WEATHER),
      questionsText: JSON.stringify({
        polite: { type: 'noul', instructions: 'Is the reply polite?' },
        correct: { type: 'noul', instructions: 'Does the conversation reach the right answer?' },
      }),
      conversationScopes: { polite: 'last_turn' as const },
    };
    const { request, body } = checkDoc(doc).draft;
    expect(request!.questions['polite']!.instructions).toBe(`${LAST_TURN_PREFIX}Is the reply polite?`);
    expect(request!.questions['correct']!.instructions).toBe('Does the conversation reach the right answer?');
    expect(body!.questions).toEqual(request!.questions);
    const decisions = outgoing(
      { dialect: 'decisions', envelope: 'none', modelInPath: false },
      '/v1/decisions',
      JSON.stringify(body),
    );
    expect(decisions.ok && JSON.parse(decisions.body).questions[0].instructions).toBe(
      `${LAST_TURN_PREFIX}Is the reply polite?`,
    );
  });
});
