import * as z from 'zod';

/**
 * Users on the wire (core spec §3 User, §5 user rules, §6 permissions): the view the users API answers and
 * sends in `user` events, and the bodies functions/http/users accepts. Shared by the handlers,
 * functions/core/users and frontend/src/api/users.ts; never the password.
 */
export type Enabled = 'enabled' | 'disabled';

export interface UserView {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: 'admin' | 'user';
  super: boolean;
  startWork: string;
  endWork: string;
  farewellMessage: string;
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  allHistoric: Enabled;
  allUserChat: Enabled;
  userClosePendingTicket: Enabled;
  showDashboard: Enabled;
  allowRealTime: Enabled;
  allowConnections: Enabled;
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  whatsappId: number | null;
  queueIds: number[];
  /** The queues of `queueIds` by name and colour. */
  queues: { id: number; name: string; color: string }[];
  /** The avatar's URL (`/media/...`), or null. */
  profileImage: string | null;
  online: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /users: one page of the company's users by name (admins only). */
export interface UserPage {
  users: UserView[];
  hasMore: boolean;
  /** Opaque cursor of the next page (docs/decisions/D04-cursor-paging.md): passing it makes the next page one Query. */
  nextCursor?: string;
}

/** GET /users/list: id and name of every user of the company. */
export interface UserName {
  id: number;
  name: string;
}

/** The spec's user form rules (core §5): messages as the product shows them. */
const name = z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(50, 'Too Long!');
const email = z.string({ error: 'Required' }).trim().toLowerCase().email('Invalid email').max(254);
const password = z.string({ error: 'Required' }).min(5, 'Too Short!').max(50, 'Too Long!');
const profile = z
  .string()
  .transform((p) => p.toLowerCase())
  .pipe(z.enum(['admin', 'user'], { error: 'must be admin or user' }));
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');
const enabled = z.enum(['enabled', 'disabled']);

const userFields = {
  profile,
  startWork: time,
  endWork: time,
  farewellMessage: z.string().max(2000),
  allTicket: z.enum(['enable', 'disable']),
  allowGroup: z.boolean(),
  allHistoric: enabled,
  allUserChat: enabled,
  userClosePendingTicket: enabled,
  showDashboard: enabled,
  allowRealTime: enabled,
  allowConnections: enabled,
  defaultTheme: z.enum(['light', 'dark']),
  defaultMenu: z.enum(['open', 'closed']),
  whatsappId: z.number().int().positive().nullable(),
  queueIds: z.array(z.number().int().positive()).max(100),
};

/** POST /users (admins): name, e-mail and password; the rest takes the spec's defaults. */
export const createUserBody = z
  .object({ name, email, password, ...userFields, profile: profile.default('user') })
  .partial({
    startWork: true,
    endWork: true,
    farewellMessage: true,
    allTicket: true,
    allowGroup: true,
    allHistoric: true,
    allUserChat: true,
    userClosePendingTicket: true,
    showDashboard: true,
    allowRealTime: true,
    allowConnections: true,
    defaultTheme: true,
    defaultMenu: true,
    whatsappId: true,
    queueIds: true,
  });
export type CreateUserBody = z.input<typeof createUserBody>;

/** PUT /users/{id}: only the fields sent change; a plain user may not send the admin-only ones (spec §6). */
export const updateUserBody = z.object({ name, email, password, ...userFields }).partial();
export type UpdateUserBody = z.input<typeof updateUserBody>;
