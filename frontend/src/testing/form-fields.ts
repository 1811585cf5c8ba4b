import type createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act } from '@testing-library/react';

type ElementWrapper = ReturnType<typeof createWrapper>;

/** The Cloudscape form field whose label reads `label`, as the user finds it. */
export const fieldByLabel = (wrapper: ElementWrapper, label: string) => {
  const field = wrapper.findAllFormFields().find((f) => f.findLabel()?.getElement().textContent === label);
  if (!field) throw new Error(`no form field labelled '${label}'`);
  return field;
};

/** Types `value` into the input of the field labelled `label`. */
export const typeInto = (wrapper: ElementWrapper, label: string, value: string): void => {
  const input = fieldByLabel(wrapper, label).findControl()?.findInput();
  if (!input) throw new Error(`the field '${label}' has no input`);
  act(() => input.setInputValue(value));
};

/**
 * The error message under the field labelled `label`, or null when it shows none. Read without touching the
 * DOM: Cloudscape's `findError()` is a `:scope` query, which its test utils emulate by setting and removing
 * an attribute on the field. Inside `waitFor`, whose MutationObserver watches attributes, every check then
 * triggers the next at once — an endless microtask loop that starves React's render and every timer, so a
 * wait for an error that arrives with a server's answer hung for ever (decisions D170).
 */
export const errorOf = (wrapper: ElementWrapper, label: string): string | null => {
  const field = fieldByLabel(wrapper, label).getElement();
  const hints = Array.from(field.children).find((child) => child.className.includes('awsui_hints_'));
  return hints?.querySelector('[class*="awsui_error__message_"]')?.textContent ?? null;
};

/** The texts of the toasts on screen. */
export const toastTexts = (wrapper: ElementWrapper): string[] =>
  (wrapper.findFlashbar()?.findItems() ?? []).map((item) => item.findContent()?.getElement().textContent ?? '');
