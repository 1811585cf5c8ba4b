import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act } from '@testing-library/react';

/**
 * Test helpers for Cloudscape screens (component tests only): the open dialog, buttons by name, table
 * columns, switches, and a fake IntersectionObserver for the infinite scroll.
 */

type ElementWrapper = ReturnType<typeof createWrapper>;

/** The open dialog (the app shell keeps closed ones in the page too). */
export const openModal = (wrapper: ElementWrapper) => {
  const modal = wrapper.findAllModals().find((m) => m.isVisible());
  if (!modal) throw new Error('no open dialog');
  return modal;
};

export const noOpenModal = (wrapper: ElementWrapper): boolean => !wrapper.findAllModals().some((m) => m.isVisible());

/**
 * A stand-in for the browser's IntersectionObserver (jsdom has none): tests make an element "reach the
 * viewport" with `intersect(element)`. Cloudscape's own observers are created too and simply never fire.
 */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  /** The live observers watching `target`. */
  static watching(target: Element): FakeIntersectionObserver[] {
    return FakeIntersectionObserver.instances.filter((o) => o.targets.has(target));
  }

  /** Tells every observer of `target` that it now intersects its (margin-extended) viewport. */
  static intersect(target: Element) {
    for (const observer of FakeIntersectionObserver.watching(target)) {
      const entry = { target, isIntersecting: true, time: Date.now() } as unknown as IntersectionObserverEntry;
      act(() => observer.callback([entry], observer as unknown as IntersectionObserver));
    }
  }
}

/** Anything that has an element: the root wrapper or a component's (a modal's). */
type Scope = { getElement(): Element };

/** The button whose text or aria-label reads `name` (the first one). */
export const buttonNamed = (scope: Scope, name: string) => {
  // Re-rooted: component wrappers (a modal's) do not always carry the finders of the root wrapper.
  const button = createWrapper(scope.getElement())
    .findAllButtons()
    .find((b) => b.getElement().textContent === name || b.getElement().getAttribute('aria-label') === name);
  if (!button) throw new Error(`no button '${name}'`);
  return button;
};

export const click = (scope: Scope, name: string) => {
  const button = buttonNamed(scope, name);
  act(() => button.click());
};

/** The switch labelled `label` (its label element also holds the description, which is left out). */
export const toggleNamed = (wrapper: ElementWrapper, label: string) => {
  const toggle = wrapper.findAllToggles().find((t) => {
    const text = t.findLabel().getElement().textContent ?? '';
    const description = t.findDescription()?.getElement().textContent ?? '';
    return text === `${label}${description}`;
  });
  if (!toggle) throw new Error(`no switch '${label}'`);
  return toggle;
};

/** The texts of the table's rows, one cell column at a time. */
export const columnTexts = (wrapper: ElementWrapper, column: number): string[] => {
  const table = wrapper.findTable();
  if (!table) return [];
  return table.findRows().map((_, row) => table.findBodyCell(row + 1, column)?.getElement().textContent ?? '');
};
