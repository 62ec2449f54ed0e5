// The local-only banner: what answers on the local reference, and how to add a model file or the real service.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LocalOnlyBanner } from '../../../src/app/features/shell/LocalOnlyBanner';

describe('LocalOnlyBanner', () => {
  it('without a model file, says how to run one and how to add a key', () => {
    render(<LocalOnlyBanner />);
    expect(screen.getByTestId('shell.bannerModel')).toHaveTextContent(
      'To answer from a language model on this machine, start with any GGUF file: REFERENCE_MODEL_FILE=path/to/model.gguf npm start.',
    );
    expect(screen.getByTestId('shell.bannerLines')).toHaveTextContent('EVAL_BASE_URL=');
  });

  it('with a model file, names it and its model id beside the lexical judge, and can be hidden', async () => {
    render(<LocalOnlyBanner modelFile={{ fileName: 'qwen.gguf', alias: 'local-qwen' }} />);
    expect(screen.getByTestId('shell.bannerModel')).toHaveTextContent(
      'It answers from qwen.gguf on this machine (model local-qwen) and from a deterministic lexical judge that is not a language model (model-latest, model-preview)',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Hide this note' }));
    expect(screen.queryByTestId('shell.banner')).toBeNull();
  });
});
