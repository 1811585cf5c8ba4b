import type { User } from '@/api/users';
import { authUser } from '@/testing/auth-fixtures';

/** Test helpers of the users area (component tests only); the generic ones live in components/test-kit. */
export {
  buttonNamed,
  click,
  columnTexts,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
  toggleNamed,
} from '@/components/test-kit';

/** A user as GET /users answers it. */
export const userRow = (id: number, name: string, overrides: Partial<User> = {}): User => {
  const { company: _company, companieSettings: _settings, ...base } = authUser({ id, name });
  return {
    ...base,
    email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
    profile: 'user',
    online: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
};
