// A small queue to publish in the workspace's tests: two questions, rows with the judge's answers.
import type { Questions } from '../../../../src/contract';
import type { CreateQueueRequest } from '../../../../src/contract/workspace';

export const QUESTIONS: Questions = {
  tone: { type: 'choice', criteria: { calm: 'Calm', angry: 'Angry' } },
  harmful: { type: 'noul' },
};

export function queueOf(rows: number, extra: Partial<CreateQueueRequest> = {}): CreateQueueRequest {
  return {
    name: 'Tickets',
    questions: QUESTIONS,
    rows: Array.from({ length: rows }, (_, i) => ({
      key: `r${i}`,
      state: `ticket number ${i}`,
      judge: {
        tone: { label: i % 2 ? 'angry' : 'calm', confidence: 0.9 },
        harmful: { label: false, confidence: 0.8 },
      },
    })),
    ...extra,
  };
}
