import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fileListForSending } from '../../functions/core/files/file-list-service';
import { deleteFileList, getFileList } from '../../functions/data/file-list-repository';
import { createQueue, updateQueue } from '../../functions/data/queue-repository';
import { eventsUntil, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/** File lists (administration spec §2 "Files", §3, §5, §7; decisions D88) through the gateway. */
let t: TestCompany;
let other: TestCompany;
beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const fetchMedia = (path: string) => fetch(`${inject('gatewayUrl')}${path}`);
const names = (files: { name: string }[]) => files.map((f) => f.name);

/** The spec's upload form: `files` and `id` once per file, in the same order, plus the parts we ignore. */
const uploadForm = (fileListId: number, files: { optionId: number; bytes: Buffer; name: string; type: string }[]) => {
  const form = new FormData();
  form.append('fileId', String(fileListId));
  form.append('typeArch', 'fileList');
  for (const f of files) {
    form.append('files', new Blob([f.bytes], { type: f.type }), f.name);
    form.append('mediaType', f.type);
    form.append('name', f.name);
    form.append('id', String(f.optionId));
  }
  return form;
};
const pdf = (text = 'tabela') => Buffer.from(`%PDF-1.4 ${text}`);

const newList = async (c: TestCompany, name: string, options: string[] = ['Tabela']) => {
  const res = await api(c.adminToken).post('/files', {
    name,
    message: 'Seguem os arquivos',
    options: options.map((o) => ({ name: o })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe('file lists: create, read, list', () => {
  it('creates a list with its options; the owner comes from the token, the tenant too', async () => {
    const res = await api(t.adminToken).post('/files', {
      name: '  Catálogo 2026 ',
      message: 'Olá!\nSeguem nossos catálogos:',
      options: [{ name: 'Preços', path: '/etc/passwd', mediaType: 'image' }, { name: 'Fotos' }],
      userId: 999,
      companyId: other.company.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Catálogo 2026',
      message: 'Olá!\nSeguem nossos catálogos:',
      options: [
        { id: 1, name: 'Preços', path: null, fileName: null, mediaType: null, mimetype: null },
        { id: 2, name: 'Fotos', path: null, fileName: null, mediaType: null, mimetype: null },
      ],
      userId: t.admin.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api(t.adminToken).get(`/files/${res.body.id}`)).body).toEqual(res.body);
    expect(await getFileList(other.company.id, res.body.id)).toBeNull();
  });

  it('searches by name prefix, accent- and case-insensitively, and pages by number or cursor', async () => {
    const c = await freshCompany();
    for (let i = 0; i < 23; i += 1) await newList(c, `Lista ${String(i).padStart(2, '0')}`, []);
    await newList(c, 'Árvore de Natal', []);
    const first = await api(c.adminToken).get('/files', { searchParam: 'lis', pageNumber: '1' });
    expect(first.status).toBe(200);
    expect(first.body.files).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await api(c.adminToken).get('/files', { searchParam: 'lis', pageNumber: '2' });
    expect(names(second.body.files)).toEqual(['Lista 20', 'Lista 21', 'Lista 22']);
    expect(second.body.hasMore).toBe(false);
    const byCursor = await api(c.adminToken).get('/files', { searchParam: 'lis', cursor: first.body.nextCursor });
    expect(byCursor.body.files).toEqual(second.body.files);
    for (const search of ['arv', 'ÁRV', 'árvore de']) {
      expect(names((await api(c.adminToken).get('/files', { searchParam: search })).body.files)).toEqual([
        'Árvore de Natal',
      ]);
    }
    // The picker's call, `companyId` only: the caller's own lists, by name.
    const all = await api(c.adminToken).get('/files', { companyId: String(t.company.id) });
    expect(names(all.body.files)[0]).toBe('Árvore de Natal');
    expect(all.body.files).toHaveLength(20);
  });

  it('bad input is a 400 naming each field with the spec texts, and nothing is written', async () => {
    const c = await freshCompany();
    const admin = api(c.adminToken);
    const short = await admin.post('/files', { name: 'ab', message: '   ' });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    expect(short.body.fields).toEqual([
      { field: 'body.name', reason: 'nome muito curto' },
      { field: 'body.message', reason: 'Obrigatório' },
    ]);
    const none = await admin.post('/files', {});
    expect(none.body.fields).toEqual([
      { field: 'body.name', reason: 'Obrigatório' },
      { field: 'body.message', reason: 'Obrigatório' },
    ]);
    const badOptions = await admin.post('/files', { name: 'Lista', message: 'x', options: [{ name: ' ' }] });
    expect(badOptions.body.fields).toEqual([{ field: 'body.options.0.name', reason: 'Obrigatório' }]);
    const tooMany = await admin.post('/files', {
      name: 'Lista',
      message: 'x',
      options: Array.from({ length: 21 }, (_, i) => ({ name: `Arquivo ${i}` })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.fields[0].field).toBe('body.options');
    expect((await admin.get('/files')).body.files).toEqual([]);

    const made = await newList(c, 'Lista fixa');
    for (const body of [{ name: 'x' }, { message: '' }, { options: [{ id: 99, name: 'Outro' }] }]) {
      const res = await admin.put(`/files/${made.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknownOption = await admin.put(`/files/${made.id}`, { options: [{ id: 99, name: 'Outro' }] });
    expect(unknownOption.body.fields).toEqual([
      { field: 'body.options.0.id', reason: 'is not an option of this file list' },
    ]);
    expect((await admin.get(`/files/${made.id}`)).body).toEqual(made);
  });

  it('a plain user gets 403 ERR_NO_PERMISSION on every call and changes nothing', async () => {
    const list = await newList(t, 'Só admins');
    const user = api(t.attendantToken);
    for (const res of [
      await user.get('/files'),
      await user.get(`/files/${list.id}`),
      await user.post('/files', { name: 'Minha lista', message: 'x' }),
      await user.put(`/files/${list.id}`, { name: 'Invadida' }),
      await user.post(
        `/files/uploadList/${list.id}`,
        uploadForm(list.id, [{ optionId: 1, bytes: pdf(), name: 'a.pdf', type: 'application/pdf' }]),
      ),
      await user.delete(`/files/${list.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await api(t.adminToken).get(`/files/${list.id}`)).body).toEqual(list);
  });

  it("another company's list answers 404 exactly like a missing one and never shows in the list", async () => {
    const theirs = await newList(other, 'Segredo da outra');
    const admin = api(t.adminToken);
    // Ids are per company: look for theirs with an id this company never reaches.
    const probe = theirs.id + 100_000;
    const [foreign, missing] = await Promise.all([admin.get(`/files/${probe}`), admin.get('/files/999999999')]);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(missing.body.error).toBe('ERR_NO_FILE_FOUND');
    expect(names((await admin.get('/files', { searchParam: 'segredo' })).body.files)).toEqual([]);
  });
});

describe('file lists: options and their files', () => {
  it('uploads a file per option, typed by its bytes whatever the name and the form claim', async () => {
    const list = await newList(t, 'Tipos pelos bytes', ['Foto', 'Página', 'Tabela']);
    const res = await api(t.adminToken).post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [
        { optionId: 1, bytes: TINY_PNG, name: 'foto.pdf', type: 'application/pdf' },
        { optionId: 2, bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'x.png', type: 'image/png' },
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [photo, page, table] = res.body.options;
    expect(photo).toMatchObject({
      id: 1,
      name: 'Foto',
      fileName: 'foto.pdf',
      mediaType: 'image',
      mimetype: 'image/png',
    });
    expect(page).toMatchObject({
      id: 2,
      fileName: 'x.png',
      mediaType: 'application',
      mimetype: 'application/octet-stream',
    });
    expect(table).toMatchObject({ id: 3, path: null, mediaType: null });
    expect(photo.path).toMatch(new RegExp(`^/media/c/${t.company.id}/files/${list.id}/[0-9a-f-]{36}\\.pdf$`));
    const served = await fetchMedia(photo.path);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(TINY_PNG)).toBe(true);
    expect((await fetchMedia(page.path)).headers.get('content-type')).toBe('application/octet-stream');

    // What a chatbot option of kind file sends: the message, then each file that has one.
    expect(await fileListForSending(t.company.id, list.id)).toEqual({
      message: 'Seguem os arquivos',
      files: [
        {
          name: 'Foto',
          mediaType: 'image',
          mediaKey: photo.path.replace('/media/', ''),
          mimetype: 'image/png',
          fileName: 'foto.pdf',
        },
        {
          name: 'Página',
          mediaType: 'application',
          mediaKey: page.path.replace('/media/', ''),
          mimetype: 'application/octet-stream',
          fileName: 'x.png',
        },
      ],
    });
    expect(await fileListForSending(other.company.id, list.id)).toBeNull();
  });

  it('a new upload replaces the option’s file (the old object goes); removing an option removes its file', async () => {
    const admin = api(t.adminToken);
    const list = await newList(t, 'Troca de arquivos', ['Preços', 'Catálogo']);
    const first = (
      await admin.post(
        `/files/uploadList/${list.id}`,
        uploadForm(list.id, [
          { optionId: 1, bytes: pdf('v1'), name: 'precos.pdf', type: 'application/pdf' },
          { optionId: 2, bytes: pdf('catalogo'), name: 'catalogo.pdf', type: 'application/pdf' },
        ]),
      )
    ).body;
    const [oldPrices, catalogue] = first.options;
    const second = await admin.post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [{ optionId: 1, bytes: pdf('v2'), name: 'precos-2026.pdf', type: 'application/pdf' }]),
    );
    expect(second.body.options[0]).toMatchObject({ fileName: 'precos-2026.pdf' });
    expect((await fetchMedia(oldPrices.path)).status).toBe(404);
    expect(await (await fetchMedia(second.body.options[0].path)).text()).toBe('%PDF-1.4 v2');

    // Keep option 1 (renamed, its file stays), drop option 2 (its file goes), add a new one (id 3).
    const edited = await admin.put(`/files/${list.id}`, {
      name: 'Troca feita',
      message: 'Nova mensagem',
      options: [{ id: 1, name: 'Preços 2026', path: 'ignorado' }, { name: 'Novo' }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Troca feita', message: 'Nova mensagem' });
    expect(edited.body.options).toEqual([
      { ...second.body.options[0], name: 'Preços 2026' },
      { id: 3, name: 'Novo', path: null, fileName: null, mediaType: null, mimetype: null },
    ]);
    expect((await fetchMedia(catalogue.path)).status).toBe(404);
    expect((await fetchMedia(second.body.options[0].path)).status).toBe(200);
    // A removed option's id is never given again: an upload aimed at it is refused.
    const stale = await admin.post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [{ optionId: 2, bytes: pdf(), name: 'velho.pdf', type: 'application/pdf' }]),
    );
    expect(stale.status).toBe(400);
    expect(stale.body.fields).toEqual([{ field: 'body.id.0', reason: 'is not an option of this file list' }]);
  });

  it('a bad upload is a 400 naming the part, and the list keeps its files', async () => {
    const admin = api(t.adminToken);
    const list = await newList(t, 'Uploads ruins', ['Um', 'Dois']);
    const twoFilesOneId = uploadForm(list.id, [
      { optionId: 1, bytes: pdf(), name: 'a.pdf', type: 'application/pdf' },
      { optionId: 2, bytes: pdf(), name: 'b.pdf', type: 'application/pdf' },
    ]);
    twoFilesOneId.delete('id');
    twoFilesOneId.append('id', '1');
    const mismatch = await admin.post(`/files/uploadList/${list.id}`, twoFilesOneId);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fields).toEqual([
      { field: 'body.id', reason: 'one option id per file, in the order of the files' },
    ]);
    const empty = await admin.post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [{ optionId: 1, bytes: Buffer.alloc(0), name: 'vazio.pdf', type: 'application/pdf' }]),
    );
    expect(empty.body.fields).toEqual([{ field: 'body.files.0', reason: 'is empty' }]);
    const twice = await admin.post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [
        { optionId: 1, bytes: pdf(), name: 'a.pdf', type: 'application/pdf' },
        { optionId: 1, bytes: pdf(), name: 'b.pdf', type: 'application/pdf' },
      ]),
    );
    expect(twice.body.fields).toEqual([{ field: 'body.id.1', reason: 'names the same option twice' }]);
    const noFiles = new FormData();
    noFiles.append('typeArch', 'fileList');
    const nothing = await admin.post(`/files/uploadList/${list.id}`, noFiles);
    expect(nothing.status).toBe(400);
    expect(nothing.body.fields[0].field).toBe('body.files');
    const tooBig = await admin.post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [
        { optionId: 1, bytes: Buffer.alloc(4 * 1024 * 1024 + 1, 1), name: 'grande.bin', type: 'application/pdf' },
      ]),
    );
    expect(tooBig.status).toBe(413);
    expect((await getFileList(t.company.id, list.id))?.options.every((o) => o.mediaKey === null)).toBe(true);
  });
});

describe('file lists: delete', () => {
  it('deletes the list and its files', async () => {
    const admin = api(t.adminToken);
    const list = await newList(t, 'Para apagar', ['Um']);
    const uploaded = (
      await admin.post(
        `/files/uploadList/${list.id}`,
        uploadForm(list.id, [{ optionId: 1, bytes: pdf(), name: 'um.pdf', type: 'application/pdf' }]),
      )
    ).body;
    expect((await fetchMedia(uploaded.options[0].path)).status).toBe(200);
    const res = await admin.delete(`/files/${list.id}`);
    expect(res.status).toBe(200);
    expect((await admin.get(`/files/${list.id}`)).status).toBe(404);
    expect((await fetchMedia(uploaded.options[0].path)).status).toBe(404);
    expect(await fileListForSending(t.company.id, list.id)).toBeNull();
    expect((await admin.delete(`/files/${list.id}`)).status).toBe(404);
  });

  it('refuses with 409 ERR_FILE_LIST_IN_USE, naming the queues, while a queue sends the list', async () => {
    const c = await freshCompany();
    const admin = api(c.adminToken);
    const used = await newList(c, 'Usada por filas');
    const free = await newList(c, 'Livre');
    const queue = await createQueue(c.company.id, { name: 'Vendas', color: '#112233', fileListId: used.id });
    await createQueue(c.company.id, { name: 'Suporte', color: '#445566', fileListId: null });

    const refused = await admin.delete(`/files/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'ERR_FILE_LIST_IN_USE',
      details: { queues: [{ id: queue.id, name: 'Vendas' }], queueNames: 'Vendas' },
    });
    expect((await admin.get(`/files/${used.id}`)).body).toEqual(used);
    expect((await admin.delete(`/files/${free.id}`)).status).toBe(200);
  });

  it('the delete re-checks, in its transaction, the queues it looked at: one that took the list meanwhile stops it', async () => {
    const c = await freshCompany();
    const list = await newList(c, 'Corrida');
    // The service saw this queue (version 1) without the list; by the time the delete lands, an admin changed
    // the queue to send it.
    const queue = await createQueue(c.company.id, { name: 'Corrida', color: '#778899' });
    await updateQueue(queue, { fileListId: list.id });
    const current = (await getFileList(c.company.id, list.id))!;
    await expect(deleteFileList(current, [{ id: queue.id, version: queue.version }])).rejects.toMatchObject({
      status: 409,
      code: 'ERR_CONFLICT',
    });
    expect(await getFileList(c.company.id, list.id)).toEqual(current);
  });
});

describe('file lists: live events', () => {
  it('company-{id}-file create, update and delete reach the admins, not plain users or other companies', async () => {
    const c = await freshCompany();
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const [adminSocket, userSocket, outsider] = await Promise.all([
      connectSocket(url(c.adminToken)),
      connectSocket(url(c.attendantToken)),
      connectSocket(url(other.adminToken)),
    ]);
    const channel = `company-${c.company.id}-file`;
    const on = (action: string, id: number) => (e: SocketEvent) =>
      e.channel === channel &&
      e.action === action &&
      ((e.files as { id?: number } | undefined)?.id === id || e.fileId === id);

    const list = await newList(c, 'Ao vivo');
    const [created] = (await eventsUntil(adminSocket, on('create', list.id))).slice(-1);
    expect(created).toMatchObject({ files: { id: list.id, name: 'Ao vivo', options: [{ id: 1, name: 'Tabela' }] } });

    await api(c.adminToken).post(
      `/files/uploadList/${list.id}`,
      uploadForm(list.id, [{ optionId: 1, bytes: pdf(), name: 'tabela.pdf', type: 'application/pdf' }]),
    );
    const [uploaded] = (await eventsUntil(adminSocket, on('update', list.id))).slice(-1);
    expect(uploaded).toMatchObject({ files: { options: [{ fileName: 'tabela.pdf', mediaType: 'application' }] } });

    await api(c.adminToken).put(`/files/${list.id}`, { name: 'Ao vivo 2' });
    const [renamed] = (await eventsUntil(adminSocket, on('update', list.id))).slice(-1);
    expect(renamed).toMatchObject({ files: { name: 'Ao vivo 2' } });

    await api(c.adminToken).delete(`/files/${list.id}`);
    const [deleted] = (await eventsUntil(adminSocket, on('delete', list.id))).slice(-1);
    expect(deleted).toEqual({ channel, action: 'delete', fileId: list.id });

    // Sentinels: everything sent before the pong has arrived; nothing of the file lists did.
    for (const socket of [userSocket, outsider]) {
      socket.send({ action: 'ping' });
      expect(await socket.next()).toEqual({ action: 'pong' });
    }
  });
});
