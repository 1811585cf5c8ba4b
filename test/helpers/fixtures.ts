import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { hashPassword } from '../../functions/core/passwords';
import { createCompany, type Company } from '../../functions/data/company-repository';
import { createPlan } from '../../functions/data/plan-repository';
import { createUser, type User } from '../../functions/data/user-repository';

/**
 * Integration fixtures. Every test file makes its own company (STYLE 13), so files never depend on each
 * other's data and can run in parallel against the one local cloud.
 */
export interface TestCompany {
  company: Company;
  admin: User;
  attendant: User;
  adminToken: string;
  attendantToken: string;
}

let cachedHash: Promise<string> | undefined;

export const freshCompany = async (
  name = `Empresa ${randomUUID().slice(0, 8)}`,
  options: { planId?: number; dueDate?: string } = {},
): Promise<TestCompany> => {
  cachedHash ??= hashPassword('Teste@1234');
  const passwordHash = await cachedHash;
  const company = await createCompany({
    name,
    email: `${randomUUID()}@test.local`,
    phone: '',
    document: '',
    planId: options.planId ?? 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: options.dueDate ?? new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  });
  const admin = await createUser(company.id, {
    name: 'Admin',
    email: `admin-${randomUUID()}@test.local`,
    passwordHash,
    profile: 'admin',
  });
  const attendant = await createUser(company.id, {
    name: 'Atendente',
    email: `user-${randomUUID()}@test.local`,
    passwordHash,
    profile: 'user',
  });
  return {
    company,
    admin,
    attendant,
    adminToken: await signAccessToken({ companyId: company.id, userId: admin.id, profile: 'admin', super: false }),
    attendantToken: await signAccessToken({
      companyId: company.id,
      userId: attendant.id,
      profile: 'user',
      super: false,
    }),
  };
};

/** A user who can log in: a fresh e-mail and the given password, stored hashed as sign-up would. */
export const userWithPassword = async (
  companyId: number,
  password: string,
  profile: 'admin' | 'user' = 'user',
): Promise<User> =>
  createUser(companyId, {
    name: `Pessoa ${randomUUID().slice(0, 6)}`,
    email: `login-${randomUUID()}@test.local`,
    passwordHash: await hashPassword(password),
    profile,
  });

// Tests read answers field by field and assert on them; `any` keeps those reads terse.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A caller of the local gateway's HTTP API, as a browser or integrator would call it. */
export const api = (token?: string, options: { cookie?: string; headers?: Record<string, string> } = {}) => {
  const base = `${inject('gatewayUrl')}/api`;
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<ApiResponse> => {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
        // A FormData body is sent as multipart/form-data with fetch's own boundary.
        ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  return {
    get: (path: string, query?: Record<string, string>) => request('GET', path, undefined, query),
    post: (path: string, body?: unknown) => request('POST', path, body),
    put: (path: string, body?: unknown) => request('PUT', path, body),
    delete: (path: string) => request('DELETE', path),
  };
};

/** The smallest valid PNG (1x1, transparent): an avatar the upload accepts. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The spec's avatar form (core §7): {userId, typeArch: 'user', profileImage}. */
export const avatarForm = (userId: number, file: Buffer = TINY_PNG, filename = 'avatar.png', type = 'image/png') => {
  const form = new FormData();
  form.append('userId', String(userId));
  form.append('typeArch', 'user');
  form.append('profileImage', new Blob([file], { type }), filename);
  return form;
};

/**
 * A private plan with every channel (WhatsApp, Facebook, Instagram) and room for 10 connections, none of
 * the other features; `overrides` narrows it (a tighter limit, a channel left out).
 */
export const channelPlan = (overrides: Partial<Parameters<typeof createPlan>[0]> = {}) =>
  createPlan({
    name: `Canais ${randomUUID().slice(0, 6)}`,
    users: 5,
    connections: 10,
    queues: 5,
    amount: 10,
    isPublic: false,
    useWhatsapp: true,
    useFacebook: true,
    useInstagram: true,
    useCampaigns: false,
    useSchedules: false,
    useInternalChat: false,
    useExternalApi: false,
    useKanban: false,
    useOpenAi: false,
    useIntegrations: false,
    ...overrides,
  });
