import { Fragment, type CSSProperties, type ReactNode } from 'react';

/**
 * WhatsApp's text formatting, one parser for every place a message body shows: `renderWhatsappMarkup` draws
 * it (chat bubbles of the ticket screen and of the phone simulator), `stripWhatsappMarkup` leaves the plain
 * words for one-line previews (the ticket list's last message, notifications, kanban cards), so a
 * signature `*Ana:*` reads "Ana:" there instead of showing its asterisks.
 *
 * What WhatsApp formats: *bold*, _italic_, ~strikethrough~, ```monospace``` (may span lines), `inline code`,
 * and lines starting with "> " as a quote. A marker only counts at a word's edge (`2*3*4` and `snake_case_name`
 * stay as typed) and never across a line break; markers nest (`*_both_*`). Links open in a new tab (core spec
 * §9). Raw HTML is never parsed: everything is React text.
 */
export type MarkupNode =
  | { kind: 'text'; text: string }
  | { kind: 'link'; href: string }
  | { kind: 'bold' | 'italic' | 'strike'; children: MarkupNode[] }
  | { kind: 'code' | 'mono'; text: string }
  | { kind: 'quote'; children: MarkupNode[] }
  | { kind: 'break' };

const STYLE_OF = { '*': 'bold', _: 'italic', '~': 'strike' } as const;

/** A marker pair at word edges, on one line: opening not after a letter or digit, closing not before one. */
const STYLE_PATTERN = /(?<![\p{L}\p{N}])([*_~])(?=\S)([^\n]*?\S)\1(?![\p{L}\p{N}])/u;
const INLINE_CODE_PATTERN = /`([^`\n]+)`/;
const URL_PATTERN = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'*_~]/u;
const MONO_PATTERN = /```([\s\S]+?)```/;

/** The earliest of several patterns in `text` (links first, then code, then styles, at the same index). */
const earliest = (text: string): { index: number; length: number; node: MarkupNode } | null => {
  const candidates: { index: number; length: number; node: () => MarkupNode }[] = [];
  const url = URL_PATTERN.exec(text);
  if (url) candidates.push({ index: url.index, length: url[0].length, node: () => ({ kind: 'link', href: url[0] }) });
  const code = INLINE_CODE_PATTERN.exec(text);
  if (code)
    candidates.push({ index: code.index, length: code[0].length, node: () => ({ kind: 'code', text: code[1]! }) });
  const style = STYLE_PATTERN.exec(text);
  if (style) {
    const marker = style[1] as keyof typeof STYLE_OF;
    candidates.push({
      index: style.index,
      length: style[0].length,
      node: () => ({ kind: STYLE_OF[marker], children: parseInline(style[2]!) }),
    });
  }
  const first = candidates.sort((a, b) => a.index - b.index)[0];
  return first ? { index: first.index, length: first.length, node: first.node() } : null;
};

/** One line's (or one styled span's) inline formatting. */
const parseInline = (text: string): MarkupNode[] => {
  const nodes: MarkupNode[] = [];
  let rest = text;
  while (rest.length > 0) {
    const found = earliest(rest);
    if (!found) {
      nodes.push({ kind: 'text', text: rest });
      break;
    }
    if (found.index > 0) nodes.push({ kind: 'text', text: rest.slice(0, found.index) });
    nodes.push(found.node);
    rest = rest.slice(found.index + found.length);
  }
  return nodes;
};

/** Text outside ``` blocks: line by line, "> " lines as quotes, the line breaks kept. */
const parseLines = (text: string): MarkupNode[] =>
  text.split('\n').flatMap((line, i): MarkupNode[] => {
    const quote = /^>\s?(.*)$/.exec(line);
    const content: MarkupNode[] = quote ? [{ kind: 'quote', children: parseInline(quote[1]!) }] : parseInline(line);
    return i === 0 ? content : [{ kind: 'break' }, ...content];
  });

/** The body as a tree of WhatsApp's formatting. */
export const parseWhatsappMarkup = (text: string | null | undefined): MarkupNode[] => {
  const nodes: MarkupNode[] = [];
  let rest = text ?? '';
  while (rest.length > 0) {
    const mono = MONO_PATTERN.exec(rest);
    if (!mono) {
      nodes.push(...parseLines(rest));
      break;
    }
    if (mono.index > 0) nodes.push(...parseLines(rest.slice(0, mono.index)));
    nodes.push({ kind: 'mono', text: mono[1]! });
    rest = rest.slice(mono.index + mono[0].length);
  }
  return nodes;
};

const plain = (nodes: MarkupNode[], breaks: string): string =>
  nodes
    .map((node) => {
      switch (node.kind) {
        case 'text':
        case 'code':
        case 'mono':
          return node.text;
        case 'link':
          return node.href;
        case 'break':
          return breaks;
        default:
          return plain(node.children, breaks);
      }
    })
    .join('');

/**
 * The body's words without WhatsApp's markers, for a one-line preview: line breaks become spaces (runs of
 * white space fold into one) unless `keepLines`.
 */
export const stripWhatsappMarkup = (text: string | null | undefined, { keepLines = false } = {}): string => {
  const out = plain(parseWhatsappMarkup(text), '\n');
  return keepLines ? out : out.replace(/\s+/g, ' ').trim();
};

const MONO_STYLE: CSSProperties = { fontFamily: 'Monaco, Menlo, Consolas, "Courier New", monospace' };
const QUOTE_STYLE: CSSProperties = {
  display: 'inline-block',
  borderInlineStart: '3px solid currentColor',
  paddingInlineStart: 8,
  opacity: 0.8,
};

const draw = (nodes: MarkupNode[], key: string): ReactNode[] =>
  nodes.map((node, i) => {
    const k = `${key}-${i}`;
    switch (node.kind) {
      case 'text':
        return <Fragment key={k}>{node.text}</Fragment>;
      case 'break':
        return <Fragment key={k}>{'\n'}</Fragment>;
      case 'link':
        return (
          <a key={k} href={node.href} target="_blank" rel="noopener noreferrer">
            {node.href}
          </a>
        );
      case 'bold':
        return <strong key={k}>{draw(node.children, k)}</strong>;
      case 'italic':
        return <em key={k}>{draw(node.children, k)}</em>;
      case 'strike':
        return <s key={k}>{draw(node.children, k)}</s>;
      case 'code':
        return (
          <code key={k} style={MONO_STYLE}>
            {node.text}
          </code>
        );
      case 'mono':
        return (
          <code key={k} style={{ ...MONO_STYLE, whiteSpace: 'pre-wrap' }} data-markup="mono">
            {node.text}
          </code>
        );
      case 'quote':
        return (
          <span key={k} style={QUOTE_STYLE} data-markup="quote">
            {draw(node.children, k)}
          </span>
        );
    }
  });

/** The body drawn with WhatsApp's formatting; keep line breaks with `white-space: pre-wrap` on the bubble. */
export const renderWhatsappMarkup = (text: string | null | undefined): ReactNode => (
  <>{draw(parseWhatsappMarkup(text), 'm')}</>
);

/** `renderWhatsappMarkup` as a component. */
export function WhatsappMarkup({ text }: { text: string | null | undefined }) {
  return renderWhatsappMarkup(text);
}
