// The page of the card-render bench: renders a 255-option choice card again and again and reports the times.
// Runs in Chromium, built by Vite like the app, so the figure is what a user's browser does.
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { ChoiceCard } from '../../src/app/components/answers/ChoiceCard';
import '../../src/app/styles/base.css';
import '../../src/app/components/answers/answers.css';
import type { ChoiceAnswer } from '../../src/contract';
import { BAR_ROW_HEIGHT } from '../../src/core/answerSeries';

/** 255 labels with a spread of probabilities (a few zeros, one clear winner), like a large taxonomy's answer. */
function bigAnswer(): ChoiceAnswer {
  const labels = Array.from(
    { length: 255 },
    (_, i) => `category_${String(i).padStart(3, '0')}_of_the_taxonomy`,
  );
  const weights = labels.map((_, i) => (i === 17 ? 40 : (i * 37) % 11));
  const total = weights.reduce((a, b) => a + b, 0);
  const probabilities = Object.fromEntries(
    labels.map((l, i) => [l, Math.round((weights[i]! / total) * 100) / 100]),
  );
  return { type: 'choice', choice: labels[17]!, confidence: 0.13, probabilities };
}

interface Sample {
  initial: number;
  showAll: number;
  bars: number;
  /** Options the scrolling chart holds (its scroll height in rows). */
  options: number;
}

/** One render of a fresh card (top 20 drawn), then "show all" (255 drawn), each through style and layout. */
function sample(stage: HTMLElement, answer: ChoiceAnswer): Sample {
  const host = document.createElement('div');
  stage.appendChild(host);
  const root = createRoot(host);
  const t0 = performance.now();
  flushSync(() => root.render(createElement(ChoiceCard, { name: 'taxonomy', answer })));
  void host.getBoundingClientRect().height; // style and layout included
  const t1 = performance.now();
  const button = host.querySelector<HTMLButtonElement>('[data-testid="answers.showAll"]')!;
  const t2 = performance.now();
  flushSync(() => button.click());
  void host.getBoundingClientRect().height;
  const t3 = performance.now();
  const bars = host.querySelectorAll('.recharts-bar-rectangle').length;
  const rows = host.querySelector<HTMLElement>('.answer-chart__rows');
  const options = rows ? Math.round(parseFloat(rows.style.height) / BAR_ROW_HEIGHT) : 0;
  root.unmount();
  host.remove();
  return { initial: t1 - t0, showAll: t3 - t2, bars, options };
}

declare global {
  interface Window {
    runBench(rounds: number): Sample[];
  }
}

window.runBench = (rounds) => {
  const stage = document.getElementById('stage')!;
  const answer = bigAnswer();
  return Array.from({ length: rounds }, () => sample(stage, answer));
};
