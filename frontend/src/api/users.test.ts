import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '@/testing/fake-api';
import { createAmplifyAdapter } from './amplify-adapter';
import { configureApi, createTransport, REFRESH_PATH } from './transport';
import { avatarUrl, deleteUser, listUsers, updateUser, uploadAvatar } from './users';

describe('users client', () => {
  beforeEach(() => {
    localStorage.setItem('token', 'tok-1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists a page with the search, the page number and the cursor, leaving an empty search out', async () => {
    const server = fakeApi({ 'GET /users': () => json(200, { users: [], hasMore: true, nextCursor: 'c2' }) });
    configureApi(createTransport({ adapter: server.adapter }));

    await expect(listUsers({ searchParam: 'ana', pageNumber: 2, cursor: 'c1' })).resolves.toEqual({
      users: [],
      hasMore: true,
      nextCursor: 'c2',
    });
    await listUsers({ searchParam: '', pageNumber: 1 });

    expect(server.requests.map((r) => r.query)).toEqual([
      { searchParam: 'ana', pageNumber: '2', cursor: 'c1' },
      { pageNumber: '1' },
    ]);
  });

  it('updates and deletes by id', async () => {
    const server = fakeApi({
      'PUT /users/7': (req) => json(200, { id: 7, ...(req.body as object) }),
      'DELETE /users/7': () => json(200, { message: 'User deleted' }),
    });
    configureApi(createTransport({ adapter: server.adapter }));

    await expect(updateUser(7, { name: 'Bia' })).resolves.toMatchObject({ id: 7, name: 'Bia' });
    await expect(deleteUser(7)).resolves.toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /users/7', 'DELETE /users/7']);
  });

  it('uploads the avatar as multipart/form-data with userId, typeArch and profileImage, through Amplify', async () => {
    // The production chain (transport + Amplify's REST client) with only the browser's fetch replaced.
    const seen: { url: string; headers: Headers; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push({ url: String(input), headers: new Headers(init?.headers), body: init?.body });
        if (String(input).endsWith(REFRESH_PATH)) {
          return new Response(JSON.stringify({ token: 'tok-2', user: { id: 7 } }), { status: 200 });
        }
        // The first try meets an expired token: the one refresh-and-retry must send the same form again.
        if (new Headers(init?.headers).get('authorization') !== 'Bearer tok-2') {
          return new Response(JSON.stringify({ error: 'ERR_SESSION_EXPIRED' }), { status: 403 });
        }
        return new Response(JSON.stringify({ id: 7, profileImage: '/media/c/2/users/7/avatar.png' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    configureApi(createTransport({ adapter: createAmplifyAdapter('https://desk.example.com/api') }));
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'avatar.png', { type: 'image/png' });

    await expect(uploadAvatar(7, file)).resolves.toEqual({ id: 7, profileImage: '/media/c/2/users/7/avatar.png' });

    const uploads = seen.filter((s) => s.url.endsWith('/users/7/media-upload'));
    expect(uploads).toHaveLength(2);
    for (const upload of uploads) {
      expect(upload.url).toBe('https://desk.example.com/api/users/7/media-upload');
      expect(upload.body).toBeInstanceOf(FormData);
      // No JSON content type: the browser writes multipart/form-data with its boundary.
      expect(upload.headers.get('content-type') ?? '').not.toMatch(/json/);
      const form = upload.body as FormData;
      expect(form.get('userId')).toBe('7');
      expect(form.get('typeArch')).toBe('user');
      const sent = form.get('profileImage');
      expect(sent).toBeInstanceOf(File);
      expect((sent as File).name).toBe('avatar.png');
      expect((sent as File).type).toBe('image/png');
    }
    expect(uploads[1]?.headers.get('authorization')).toBe('Bearer tok-2');
  });

  it('builds the avatar address from the media path, a URL or a bare key', () => {
    expect(avatarUrl(null, '/media')).toBeUndefined();
    expect(avatarUrl('/media/c/2/users/7/a.png', '/media')).toBe('/media/c/2/users/7/a.png');
    expect(avatarUrl('https://cdn.example.com/a.png', '/media')).toBe('https://cdn.example.com/a.png');
    expect(avatarUrl('c/2/users/7/foto 1.png', '/media')).toBe('/media/c/2/users/7/foto%201.png');
  });
});
