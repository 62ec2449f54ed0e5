// Width of an element, kept current with a ResizeObserver; a fixed fallback where there is none (jsdom, first paint).
import { useLayoutEffect, useRef, useState } from 'react';

/** A ref for the element to measure and its width in pixels (`fallback` until it has one). */
export function useElementWidth<T extends HTMLElement>(fallback = 360): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = (w: number): void => {
      // Whole pixels: sub-pixel jitter would redraw the chart for nothing.
      if (w > 0) setWidth(Math.floor(w));
    };
    measure(element.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => measure(entries[0]?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
