import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeIntersectionObserver } from '@/components/test-kit';
import { NEAR_BOTTOM_PX, useNearBottom } from './use-near-bottom';

function End({ enabled, onReach }: { enabled: boolean; onReach: () => void }) {
  const ref = useNearBottom(enabled, onReach);
  return <div ref={ref} data-testid="end" />;
}

describe('useNearBottom', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('watches the element with a 100 px bottom margin and reports each time it comes near', () => {
    const onReach = vi.fn();
    const view = render(<End enabled onReach={onReach} />);
    const end = view.getByTestId('end');
    expect(NEAR_BOTTOM_PX).toBe(100);
    expect(FakeIntersectionObserver.watching(end).map((o) => o.options.rootMargin)).toEqual(['0px 0px 100px 0px']);

    FakeIntersectionObserver.intersect(end);
    expect(onReach).toHaveBeenCalledTimes(1);
  });

  it('watches nothing while disabled, and again (reporting at once) when enabled', () => {
    const onReach = vi.fn();
    const view = render(<End enabled={false} onReach={onReach} />);
    const end = view.getByTestId('end');
    expect(FakeIntersectionObserver.watching(end)).toEqual([]);

    view.rerender(<End enabled onReach={onReach} />);
    expect(FakeIntersectionObserver.watching(end)).toHaveLength(1);
    view.rerender(<End enabled={false} onReach={onReach} />);
    expect(FakeIntersectionObserver.watching(end)).toEqual([]);
  });

  it('calls the latest callback', () => {
    const first = vi.fn();
    const second = vi.fn();
    const view = render(<End enabled onReach={first} />);
    view.rerender(<End enabled onReach={second} />);
    FakeIntersectionObserver.intersect(view.getByTestId('end'));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('does nothing without IntersectionObserver (old browsers, jsdom)', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const onReach = vi.fn();
    expect(() => render(<End enabled onReach={onReach} />)).not.toThrow();
    expect(onReach).not.toHaveBeenCalled();
  });
});
