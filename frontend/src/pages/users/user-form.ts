import * as z from 'zod/mini';
import type { AuthUser, Enabled } from '@/api/auth';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, type User, type UserInput } from '@/api/users';

/**
 * The user dialog's values, rules and payloads (core spec §3 User, §5 user rules, §6 admin-only fields),
 * kept apart from the components so the rules read in one place.
 */
export interface UserFormValues {
  name: string;
  email: string;
  /** Empty on edit means "keep the current password". */
  password: string;
  profile: 'admin' | 'user';
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
  /** The default connection (admins choose it); null for none. */
  whatsappId: number | null;
  /** A new picture, uploaded after the save. */
  avatar: File | null;
}

/** A new user starts with the spec's defaults (core §3; the server applies the same). */
export const NEW_USER: UserFormValues = {
  name: '',
  email: '',
  password: '',
  profile: 'user',
  startWork: '00:00',
  endWork: '23:59',
  farewellMessage: '',
  allTicket: 'disable',
  allowGroup: false,
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
  defaultTheme: 'light',
  defaultMenu: 'open',
  whatsappId: null,
  avatar: null,
};

export const valuesOf = (user: User): UserFormValues => ({
  name: user.name,
  email: user.email,
  password: '',
  profile: user.profile,
  startWork: user.startWork,
  endWork: user.endWork,
  farewellMessage: user.farewellMessage ?? '',
  allTicket: user.allTicket,
  allowGroup: user.allowGroup,
  allHistoric: user.allHistoric,
  allUserChat: user.allUserChat,
  userClosePendingTicket: user.userClosePendingTicket,
  showDashboard: user.showDashboard,
  allowRealTime: user.allowRealTime,
  allowConnections: user.allowConnections,
  defaultTheme: user.defaultTheme,
  defaultMenu: user.defaultMenu,
  whatsappId: user.whatsappId ?? null,
  avatar: null,
});

/** Admins (and the super user) manage users and edit the admin-only fields (spec §6, server's isAdmin). */
export const isAdmin = (user: Pick<AuthUser, 'profile' | 'super'>): boolean =>
  user.profile.toLowerCase() === 'admin' || user.super;

/** Who is filling the form: a create, and whether the editor may set the admin-only fields. */
export interface FormMode {
  creating: boolean;
  admin: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** Work-time fields move in steps of 10 minutes (spec §5); 23:59, the spec's default end, is the day's end. */
export const WORK_TIME_STEP_MINUTES = 10;
const DAY_END = '23:59';

const size = (value: string) => [...value].length;

const lengthRule = (value: string, min: number, max: number): string | undefined => {
  if (size(value) === 0) return 'users.validation.required';
  if (size(value) < min) return 'users.validation.tooShort';
  return size(value) > max ? 'users.validation.tooLong' : undefined;
};

const timeRule = (value: string): string | undefined => {
  const match = TIME.exec(value);
  if (!match) return value === '' ? 'users.validation.required' : 'users.validation.invalidTime';
  return value === DAY_END || Number(match[2]) % WORK_TIME_STEP_MINUTES === 0 ? undefined : 'users.validation.timeStep';
};

/** A text rule as zod: the i18n key `check` answers is the issue's message. */
const rule = (check: (value: string) => string | undefined) =>
  z.string().check(
    z.superRefine((value, ctx) => {
      const problem = check(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  );

const emailRule = (value: string): string | undefined => {
  const email = value.trim();
  if (email === '') return 'users.validation.required';
  return EMAIL.test(email) ? undefined : 'users.validation.invalidEmail';
};

/**
 * The spec's user rules (core §5) for the form modal: name 2-50, e-mail required and valid, password 5-50
 * (required on create, optional on edit), work times HH:MM in 10-minute steps — checked only where the
 * editor can change them — and the picture (image types, size; checked as soon as it is chosen).
 */
export const userSchema = (mode: FormMode) =>
  z.object({
    name: rule((value) => lengthRule(value.trim(), 2, 50)),
    email: rule(emailRule),
    password: rule((value) => (mode.creating || value !== '' ? lengthRule(value, 5, 50) : undefined)),
    startWork: rule((value) => (mode.admin ? timeRule(value) : undefined)),
    endWork: rule((value) => (mode.admin ? timeRule(value) : undefined)),
    avatar: z.custom<File | null>().check(
      z.superRefine((file, ctx) => {
        const problem = avatarError(file);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: file });
      }),
    ),
  });

/**
 * What the dialog sends. A plain user sends only what they may change about themself (name, e-mail,
 * password, theme, menu), so the server's admin-only check never trips over an unchanged field.
 */
export const toInput = (values: UserFormValues, mode: FormMode): UserInput => {
  const own: UserInput = {
    name: values.name.trim(),
    email: values.email.trim().toLowerCase(),
    defaultTheme: values.defaultTheme,
    defaultMenu: values.defaultMenu,
    ...(values.password === '' ? {} : { password: values.password }),
  };
  if (!mode.admin) return own;
  return {
    ...own,
    profile: values.profile,
    startWork: values.startWork,
    endWork: values.endWork,
    farewellMessage: values.farewellMessage,
    allTicket: values.allTicket,
    allowGroup: values.allowGroup,
    allHistoric: values.allHistoric,
    allUserChat: values.allUserChat,
    userClosePendingTicket: values.userClosePendingTicket,
    showDashboard: values.showDashboard,
    allowRealTime: values.allowRealTime,
    allowConnections: values.allowConnections,
    whatsappId: values.whatsappId,
  };
};

/** Avatar: image files only (spec §5), of the types and size the upload route takes. */
export const avatarError = (file: File | null): string | undefined => {
  if (!file) return undefined;
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'users.validation.imageOnly';
  return file.size > AVATAR_MAX_BYTES ? 'users.validation.imageTooLarge' : undefined;
};
