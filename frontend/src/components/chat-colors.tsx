/**
 * The colours of chat bubbles (the ticket conversation and the phone simulator), in both themes. Cloudscape
 * has no chat-bubble tokens, and its design-tokens package is not a dependency here, so the bubbles use CSS
 * variables of their own that switch with the theme the way Cloudscape's do: light values on `:root`,
 * dark ones under `.awsui-dark-mode`, the class `applyMode` (theme.ts) puts on the body. WhatsApp's own
 * palette where it reads well, adjusted so text on every bubble keeps WCAG AA contrast (chat-colors.test.ts).
 */
export interface ChatPalette {
  /** A message from the other side. */
  incoming: string;
  /** A message of ours (the attendant's; on the simulated phone, the customer's own). */
  outgoing: string;
  /** A private note. */
  note: string;
  /** Text on any bubble. */
  text: string;
  /** Time, markers ("Editada") and other small print. */
  meta: string;
  /** Links inside a bubble. */
  link: string;
  /** The read (blue) ticks. */
  read: string;
  /** A failed send. */
  error: string;
  /** The bar beside a quoted message, and its background. */
  quoteBar: string;
  quoteBackground: string;
}

export const CHAT_PALETTE: Record<'light' | 'dark', ChatPalette> = {
  light: {
    incoming: '#ffffff',
    outgoing: '#d9fdd3',
    note: '#fff3c4',
    text: '#111b21',
    meta: '#54656f',
    link: '#0b57d0',
    read: '#027eb5',
    error: '#b3261e',
    quoteBar: '#06a77d',
    quoteBackground: 'rgba(0, 0, 0, 0.05)',
  },
  dark: {
    incoming: '#202c33',
    outgoing: '#0a4a3e',
    note: '#4a3f12',
    text: '#e9edef',
    meta: '#aebac1',
    link: '#7cc8f0',
    read: '#53bdeb',
    error: '#ffb4ab',
    quoteBar: '#06cf9c',
    quoteBackground: 'rgba(255, 255, 255, 0.07)',
  },
};

const NAMES: Record<keyof ChatPalette, string> = {
  incoming: '--zd-chat-incoming',
  outgoing: '--zd-chat-outgoing',
  note: '--zd-chat-note',
  text: '--zd-chat-text',
  meta: '--zd-chat-meta',
  link: '--zd-chat-link',
  read: '--zd-chat-read',
  error: '--zd-chat-error',
  quoteBar: '--zd-chat-quote-bar',
  quoteBackground: '--zd-chat-quote-background',
};

/** The colour as a CSS value that follows the theme (`var(--zd-chat-…)`), for inline styles. */
export const chatColor = Object.fromEntries(
  Object.entries(NAMES).map(([key, name]) => [key, `var(${name})`]),
) as Record<keyof ChatPalette, string>;

/** The class of a bubble: its text and links take the theme's chat colours. */
export const CHAT_BUBBLE_CLASS = 'zd-chat-bubble';

const declarations = (palette: ChatPalette): string =>
  (Object.keys(NAMES) as (keyof ChatPalette)[]).map((key) => `${NAMES[key]}: ${palette[key]};`).join(' ');

/** The stylesheet: the variables per theme and the bubble's text and link colours. */
export const CHAT_COLORS_CSS = [
  `:root { ${declarations(CHAT_PALETTE.light)} }`,
  `.awsui-dark-mode { ${declarations(CHAT_PALETTE.dark)} }`,
  `.${CHAT_BUBBLE_CLASS} { color: var(${NAMES.text}); }`,
  `.${CHAT_BUBBLE_CLASS} a { color: var(${NAMES.link}); }`,
].join('\n');

/**
 * Puts the stylesheet in the document head once however often it renders (React 19 hoists and dedupes a
 * `<style>` with `href` and `precedence`). Rendered by the screens that draw bubbles.
 */
export function ChatColors() {
  return (
    <style href="zapdesk-chat-colors" precedence="default">
      {CHAT_COLORS_CSS}
    </style>
  );
}
