// Which turns to drop when a conversation is longer than the target's context: the oldest ones after the opening
// system and developer messages (the rubric's frame stays), a tool call always with its output.
import { isMessage, isToolCall, isToolOutput } from '../../contract';
import type { Conversation } from '../../contract';
import { turnLine } from './render';

/**
 * Item indices to drop so that about `overBy` tokens go, oldest first; empty when nothing can go. The tokenizer is
 * passed in: it is a megabyte the page loads lazily.
 */
export function turnsToDrop(
  conversation: Conversation,
  overBy: number,
  countTokens: (text: string) => number,
): number[] {
  let start = 0;
  while (start < conversation.length) {
    const item = conversation[start]!;
    if (!isMessage(item) || (item.role !== 'system' && item.role !== 'developer')) break;
    start++;
  }
  const drop = new Set<number>();
  let freed = 0;
  // The last turn is what is judged: it never goes.
  for (let i = start; i < conversation.length - 1 && freed < overBy; i++) {
    if (drop.has(i)) continue;
    const item = conversation[i]!;
    const group = [i];
    if (isToolCall(item))
      conversation.forEach((o, j) => {
        if (isToolOutput(o) && o.call_id === item.call_id) group.push(j);
      });
    for (const j of group) {
      drop.add(j);
      freed += countTokens(turnLine(conversation[j]!)) + 1;
    }
  }
  return freed >= overBy ? [...drop].sort((a, b) => a - b) : [];
}

/** "turns 2-5 and 7" (1-based), for a sentence. */
export function turnList(indices: readonly number[]): string {
  const ranges: string[] = [];
  for (let k = 0; k < indices.length;) {
    let end = k;
    while (end + 1 < indices.length && indices[end + 1] === indices[end]! + 1) end++;
    const a = indices[k]! + 1;
    const b = indices[end]! + 1;
    ranges.push(a === b ? String(a) : `${a}-${b}`);
    k = end + 1;
  }
  const last = ranges.pop();
  const head = ranges.length ? `${ranges.join(', ')} and ${last}` : last;
  return `${indices.length === 1 ? 'turn' : 'turns'} ${head}`;
}
