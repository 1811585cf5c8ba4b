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

const json = (value: Record<string, unknown>): string => JSON.stringify(value);

export const storedContent = (content: InboundContent): StoredContent => {
  switch (content.type) {
    case 'text':
      return { body: content.body, mediaType: 'chat' };
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
