// One name per question type everywhere people read it; the wire name ("noul") appears where the JSON does.

/** The question type as the screens name it. */
export const KIND_NAME = { choice: 'choice', score: 'score', noul: 'yes/no', refusal: 'refused' } as const;
