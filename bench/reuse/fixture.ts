// What the reuse bench's page and its Node side share: the model and the texts of the rows.

/** The pinned model both runs name: only a pinned model's answers are reused. */
export const MODEL = 'model-1.13.0';
/** The texts of the rows, each followed by its row number. */
export const TEXTS = [
  'I was charged twice for my order and need a refund today.',
  'The app crashes every time I open the settings page.',
  'Thanks, everything is sorted now.',
  'My payouts have failed for three days, this is the third time I write.',
];
