// One name per question type everywhere people read it; the wire name ("noul") appears where the JSON does.
import { TYPE_WORD } from '../../../core/words';

/** The question type as the screens name it. */
export const KIND_NAME = { ...TYPE_WORD, refusal: 'refused' } as const;
