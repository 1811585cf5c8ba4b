import { describe, expect, it } from 'vitest';
import { CHAT_COLORS_CSS, CHAT_PALETTE, type ChatPalette } from './chat-colors';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
const contrast = (a: string, b: string): number => {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

const BUBBLES: (keyof ChatPalette)[] = ['incoming', 'outgoing', 'note'];

describe.each(['light', 'dark'] as const)('chat colours, %s theme', (mode) => {
  const palette = CHAT_PALETTE[mode];

  it.each(BUBBLES)('text, small print and links read on the %s bubble (WCAG AA, 4.5:1)', (bubble) => {
    for (const ink of ['text', 'meta', 'link', 'error'] as const) {
      expect(contrast(palette[ink], palette[bubble]), `${ink} on ${bubble}`).toBeGreaterThanOrEqual(4.5);
    }
    // The read ticks are an icon: 3:1 (WCAG 1.4.11).
    expect(contrast(palette.read, palette[bubble])).toBeGreaterThanOrEqual(3);
  });
});

describe('chat colours follow the theme', () => {
  it('dark mode has its own, darker bubbles than light mode, under the class applyMode sets', () => {
    expect(CHAT_COLORS_CSS).toContain(`:root { --zd-chat-incoming: ${CHAT_PALETTE.light.incoming};`);
    expect(CHAT_COLORS_CSS).toContain(`.awsui-dark-mode { --zd-chat-incoming: ${CHAT_PALETTE.dark.incoming};`);
    for (const bubble of BUBBLES) {
      expect(contrast(CHAT_PALETTE.dark[bubble], '#000000')).toBeLessThan(
        contrast(CHAT_PALETTE.light[bubble], '#000000'),
      );
    }
  });
});
