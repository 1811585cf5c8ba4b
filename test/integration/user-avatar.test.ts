import { beforeAll, describe, expect, inject, it } from 'vitest';
import { getUser } from '../../functions/data/user-repository';
import { api, avatarForm, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';

/** POST /users/{id}/media-upload (core spec §7): the avatar goes to the media bucket, served under /media. */
let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});

const upload = (token: string, id: number, form: FormData) => api(token).post(`/users/${id}/media-upload`, form);
const fetchMedia = (url: string) => fetch(`${inject('gatewayUrl')}${url}`);

describe('avatar upload', () => {
  it('an admin uploads an attendant avatar: the user answers its /media URL and the browser can load it', async () => {
    const res = await upload(t.adminToken, t.attendant.id, avatarForm(t.attendant.id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = res.body.profileImage as string;
    expect(url).toMatch(new RegExp(`^/media/c/${t.company.id}/users/${t.attendant.id}/[0-9a-f-]{36}\\.png$`));
    expect(res.body).toMatchObject({ id: t.attendant.id, name: t.attendant.name });

    const image = await fetchMedia(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(TINY_PNG)).toBe(true);

    const shown = await api(t.attendantToken).get('/auth/me');
    expect(shown.body.profileImage).toBe(url);
  });

  it('a new avatar replaces the old one, whose object is removed', async () => {
    const first = await upload(t.attendantToken, t.attendant.id, avatarForm(t.attendant.id));
    expect(first.status).toBe(200);
    const second = await upload(t.attendantToken, t.attendant.id, avatarForm(t.attendant.id));
    expect(second.status).toBe(200);
    expect(second.body.profileImage).not.toBe(first.body.profileImage);
    expect((await fetchMedia(first.body.profileImage as string)).status).toBe(404);
    expect((await fetchMedia(second.body.profileImage as string)).status).toBe(200);
  });

  it("a plain user cannot change another user's avatar", async () => {
    const res = await upload(t.attendantToken, t.admin.id, avatarForm(t.admin.id));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await getUser(t.company.id, t.admin.id))?.profileImage).toBeNull();
  });

  it('a file that is not an image is refused by its bytes, whatever its name and type claim, and nothing changes', async () => {
    const before = (await getUser(t.company.id, t.admin.id))?.profileImage;
    const script = Buffer.from('<script>alert(1)</script>');
    const res = await upload(t.adminToken, t.admin.id, avatarForm(t.admin.id, script, 'photo.png', 'image/png'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'ERR_INVALID_IMAGE',
      fields: [{ field: 'body.profileImage', reason: 'is not a PNG, JPEG, GIF or WebP image' }],
    });
    expect((await getUser(t.company.id, t.admin.id))?.profileImage).toBe(before);
  });

  it('an image over 2 MB is a 400 naming the field; a body over the route limit is a 413', async () => {
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(t.adminToken, t.admin.id, avatarForm(t.admin.id, big));
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'body.profileImage', reason: 'is larger than 2 MB' }]);

    const huge = Buffer.concat([TINY_PNG, Buffer.alloc(3 * 1024 * 1024)]);
    expect((await upload(t.adminToken, t.admin.id, avatarForm(t.admin.id, huge))).status).toBe(413);
  });

  it('a form without the file, a userId that is not the path, or a JSON body are 400s naming what is wrong', async () => {
    const noFile = new FormData();
    noFile.append('userId', String(t.admin.id));
    const missing = await upload(t.adminToken, t.admin.id, noFile);
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual([{ field: 'body.profileImage', reason: 'Required: an image file' }]);

    const other = await upload(t.adminToken, t.admin.id, avatarForm(t.attendant.id));
    expect(other.status).toBe(400);
    expect(other.body.fields).toEqual([{ field: 'body.userId', reason: `must be ${t.admin.id}` }]);

    const json = await api(t.adminToken).post(`/users/${t.admin.id}/media-upload`, { profileImage: 'x.png' });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
  });

  it("deleting a user removes the user's avatar from the media bucket", async () => {
    const created = await api(t.adminToken).post('/users', {
      name: 'Foto Temporária',
      email: `foto-${Math.random().toString(36).slice(2, 8)}@test.local`,
      password: 'Segredo1',
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const uploaded = await upload(t.adminToken, id, avatarForm(id));
    expect((await fetchMedia(uploaded.body.profileImage as string)).status).toBe(200);

    expect((await api(t.adminToken).delete(`/users/${id}`)).status).toBe(200);
    expect((await fetchMedia(uploaded.body.profileImage as string)).status).toBe(404);
  });
});
