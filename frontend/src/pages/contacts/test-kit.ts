import type { Contact } from '@/api/contacts';

/** A contact as GET /contacts answers it. */
export const contactRow = (id: number, name: string, overrides: Partial<Contact> = {}): Contact => ({
  id,
  name,
  number: `55119876500${String(id).padStart(2, '0')}`,
  email: '',
  extraInfo: [],
  disableBot: false,
  lgpdAcceptedAt: null,
  active: true,
  acceptAudioMessage: true,
  isGroup: false,
  channel: 'whatsapp',
  urlPicture: '',
  whatsappId: null,
  tags: [],
  createdAt: '2026-01-01T09:00:00.000Z',
  updatedAt: '2026-01-01T09:00:00.000Z',
  ...overrides,
});
