import type { Tag } from '@/api/tags';

/** A tag as GET /tags answers it. */
export const tagRow = (id: number, name: string, overrides: Partial<Tag> = {}): Tag => ({
  id,
  name,
  color: '#3366ff',
  kanban: 0,
  userId: 5,
  timeLane: null,
  nextLaneId: null,
  rollbackLaneId: null,
  greetingMessageLane: '',
  contactCount: 0,
  ticketCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
