import type { InboundContent } from './inbound-event';

/**
 * How each kind of provider content is stored (core spec §3 Message: body, mediaType, mediaUrl, vCard,
 * dataJson) and previewed in the ticket list (`lastMessage`, cut to 200 characters, data-model §1.8).
 * mediaType values follow the spec's list: `chat` for text, `application` for documents.
 */
export interface StoredContent {
  body: string;
  mediaType: string;
  mediaKey?: string;
  mimetype?: string;
  filename?: string;
  size?: number;
  vCard?: string;
  dataJson?: string;
}

export const LAST_MESSAGE_LENGTH = 200;

/**
 * A bot menu stored with its message (`dataJson.menu`; decisions D132): the message's body is the numbered
 * text every channel can show; channels that draw choices send `choices` as buttons or a list instead.
 * A choice's id is what the customer would type for it, and comes back as the reply's `choiceId`.
 */
export interface MenuContent {
  style: 'list' | 'button';
  /** The text above the choices. */
  intro: string;
  /** The label of the button that opens a list. */
  button: string;
  choices: { id: string; title: string }[];
}

const parsed = (dataJson: string | undefined): Record<string, unknown> | null => {
  if (!dataJson) return null;
  try {
    const value: unknown = JSON.parse(dataJson);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** The menu a stored message carries, if any. */
export const menuOf = (dataJson: string | undefined): MenuContent | null => {
  const menu = parsed(dataJson)?.menu as MenuContent | undefined;
  return menu && Array.isArray(menu.choices) && menu.choices.length > 0 ? menu : null;
};

/** What a customer's message answers a menu with: the pressed choice's id, else what they typed. */
export const answerOf = (message: { body: string; dataJson?: string }): string => {
  const choiceId = parsed(message.dataJson)?.choiceId;
  return typeof choiceId === 'string' && choiceId ? choiceId : message.body;
};

const json = (value: Record<string, unknown>): string => JSON.stringify(value);

export const storedContent = (content: InboundContent): StoredContent => {
  switch (content.type) {
    case 'text':
      return {
        body: content.body,
        mediaType: 'chat',
        ...(content.choiceId ? { dataJson: json({ choiceId: content.choiceId }) } : {}),
      };
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const extra: Record<string, unknown> = {};
      if ('viewOnce' in content && content.viewOnce) extra.viewOnce = true;
      if ('voice' in content && content.voice) extra.voice = true;
      if (content.type === 'sticker') extra.sticker = true;
      return {
        body: content.body ?? (content.type === 'document' ? (content.filename ?? '') : ''),
        // Stickers are WebP images; the spec has no sticker type, and "image" shows them.
        mediaType: content.type === 'document' ? 'application' : content.type === 'sticker' ? 'image' : content.type,
        mediaKey: content.mediaKey,
        mimetype: content.mimetype,
        ...(content.filename ? { filename: content.filename } : {}),
        ...(content.size !== undefined ? { size: content.size } : {}),
        ...(Object.keys(extra).length > 0 ? { dataJson: json(extra) } : {}),
      };
    }
    case 'location':
      return {
        body: [content.name, content.address].filter(Boolean).join(' - '),
        mediaType: 'location',
        dataJson: json({
          latitude: content.latitude,
          longitude: content.longitude,
          ...(content.name ? { name: content.name } : {}),
          ...(content.address ? { address: content.address } : {}),
        }),
      };
    case 'contact':
      return { body: content.displayName ?? '', mediaType: 'contact', vCard: content.vCard };
    case 'reaction':
      return { body: content.emoji, mediaType: 'reaction' };
    case 'poll':
      return {
        body: content.name,
        mediaType: 'poll',
        dataJson: json({ options: content.options, selectableCount: content.selectableCount ?? 1 }),
      };
    case 'list':
      return {
        body: content.body ?? content.title ?? '',
        mediaType: 'list',
        dataJson: json({ title: content.title, buttonText: content.buttonText, sections: content.sections }),
      };
    case 'call_log':
      return { body: '', mediaType: 'call_log', dataJson: json({ isVideo: content.isVideo, status: content.status }) };
  }
};

/** What the ticket list shows for a message without text (Portuguese, the product's language). */
const LABELS: Record<string, string> = {
  image: '📷 Imagem',
  video: '🎥 Vídeo',
  audio: '🎵 Áudio',
  application: '📄 Documento',
  location: '📍 Localização',
  contact: '👤 Contato',
  poll: '📊 Enquete',
  list: '📋 Lista',
  call_log: '📞 Chamada',
  reaction: '',
};

export const lastMessagePreview = (content: Pick<StoredContent, 'body' | 'mediaType' | 'filename'>): string => {
  const text = content.body.trim() || content.filename || LABELS[content.mediaType] || '';
  // By code points, so an emoji is never cut in half.
  const chars = [...text];
  return chars.length > LAST_MESSAGE_LENGTH ? chars.slice(0, LAST_MESSAGE_LENGTH).join('') : text;
};
