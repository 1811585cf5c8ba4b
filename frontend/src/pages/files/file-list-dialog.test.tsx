import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// A test, not the app: reading the server's limits here adds nothing to the bundle.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import * as contracts from '@contracts/files';
import {
  FILE_LIST_FILE_MAX_BYTES,
  FILE_LIST_MAX_OPTIONS,
  FILE_LIST_UPLOAD_MAX_BYTES,
  FILE_LIST_UPLOAD_MAX_FILES,
  uploadBatches,
  type FileListView,
} from '@/api/files';
import { json } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { click, columnTexts, FakeIntersectionObserver, noOpenModal, openModal } from '@/pages/users/test-kit';
import { fileList, filesApi, option } from './test-kit';

type Wrapper = ReturnType<typeof renderApp>['wrapper'];

const STORED = fileList(1, 'Catálogo', {
  message: 'Seguem os catálogos',
  options: [
    option(1, 'Preços', {
      path: '/media/c/2/files/1/a.pdf',
      fileName: 'precos.pdf',
      mediaType: 'application',
      mimetype: 'application/pdf',
    }),
    option(2, 'Fotos', {
      path: '/media/c/2/files/1/b.png',
      fileName: 'fotos.png',
      mediaType: 'image',
      mimetype: 'image/png',
    }),
  ],
});

const openPage = async (api = filesApi(() => [STORED])) => {
  const view = renderApp({ path: '/files', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Lista de arquivos/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, 1)).toEqual(['Catálogo']));
  return { ...view, api };
};

/** Inside the open dialog (re-rooted: a modal's wrapper lacks the root's finders). */
const inDialog = (wrapper: Wrapper) => createWrapper(openModal(wrapper).getElement());
const editor = (wrapper: Wrapper) => {
  const found = inDialog(wrapper).findAttributeEditor();
  if (!found) throw new Error('no options editor');
  return found;
};
const optionNames = (wrapper: Wrapper) =>
  editor(wrapper)
    .findRows()
    .map((r) => r.findField(1)?.findControl()?.findInput()?.getInputValue());
const typeOptionName = (wrapper: Wrapper, row: number, value: string) => {
  const input = editor(wrapper).findRow(row)?.findField(1)?.findControl()?.findInput();
  if (!input) throw new Error(`no option ${row}`);
  act(() => input.setInputValue(value));
};
const chooseFile = (wrapper: Wrapper, row: number, file: File) => {
  const field = editor(wrapper).findRow(row)?.findField(2);
  const input = field && createWrapper(field.getElement()).findFileInput()?.findNativeInput().getElement();
  if (!input) throw new Error(`no file input in option ${row}`);
  act(() => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};
const fileErrorOf = (wrapper: Wrapper, row: number) =>
  editor(wrapper).findRow(row)?.findField(2)?.findError()?.getElement().textContent ?? null;
const typeMessage = (wrapper: Wrapper, value: string) => {
  const textarea = inDialog(wrapper)
    .findAllFormFields()
    .find((f) => f.findLabel()?.getElement().textContent === 'Mensagem')
    ?.findControl()
    ?.findTextarea();
  if (!textarea) throw new Error('no message textarea');
  act(() => textarea.setTextareaValue(value));
};
const pdf = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

describe('file list dialog', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("checks the spec's rules, then creates the list and uploads each option's file to its new id", async () => {
    const created = fileList(9, 'Tabelas', {
      message: 'Seguem as tabelas',
      options: [option(1, 'Preços 2026'), option(2, 'Fotos')],
    });
    const api = filesApi(() => [STORED], {
      'POST /files': () => json(201, created),
      'POST /files/uploadList/9': () =>
        json(200, { ...created, options: created.options.map((o) => ({ ...o, path: `/media/x/${o.id}` })) }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Mensagem')).toBe('Obrigatório');
    typeInto(wrapper, 'Nome', 'ab');
    expect(errorOf(wrapper, 'Nome')).toBe('nome muito curto');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', ' Tabelas ');
    typeMessage(wrapper, 'Seguem as tabelas');
    expect(optionNames(wrapper)).toEqual([]);
    click(modal, '+ Adicionar');
    click(modal, '+ Adicionar');
    click(modal, '+ Adicionar');
    // A chosen file names an option left without a name.
    chooseFile(wrapper, 1, pdf('Preços 2026.pdf'));
    typeOptionName(wrapper, 2, 'Fotos');
    chooseFile(wrapper, 2, new File(['png'], 'fotos.png', { type: 'image/png' }));
    expect(optionNames(wrapper)).toEqual(['Preços 2026', 'Fotos', '']);
    click(modal, 'Salvar');
    expect(editor(wrapper).findRow(3)?.findField(1)?.findError()?.getElement().textContent).toBe('Obrigatório');
    act(() => editor(wrapper).findRow(3)?.findRemoveButton()?.click());
    expect(optionNames(wrapper)).toEqual(['Preços 2026', 'Fotos']);

    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    const posts = api.sent('POST');
    expect(posts.map((r) => r.path)).toEqual(['/files', '/files/uploadList/9']);
    expect(posts[0]?.body).toEqual({
      name: 'Tabelas',
      message: 'Seguem as tabelas',
      options: [{ name: 'Preços 2026' }, { name: 'Fotos' }],
    });
    const form = posts[1]?.body as FormData;
    expect(form.get('typeArch')).toBe('fileList');
    expect(form.get('fileId')).toBe('9');
    expect((form.getAll('files') as File[]).map((f) => f.name)).toEqual(['Preços 2026.pdf', 'fotos.png']);
    expect(form.getAll('id')).toEqual(['1', '2']);
    expect(toastTexts(wrapper)).toContain('Lista de arquivos salva com sucesso!');
  });

  it('edits a list: stored files stay unless replaced, a removed option goes, a new one gets its file', async () => {
    const updated: FileListView = {
      ...STORED,
      name: 'Catálogo 2026',
      options: [STORED.options[0]!, option(3, 'Vídeo')],
    };
    const api = filesApi(() => [STORED], {
      'PUT /files/1': () => json(200, updated),
      'POST /files/uploadList/1': () => json(200, updated),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar Catálogo');
    const modal = openModal(wrapper);
    expect(optionNames(wrapper)).toEqual(['Preços', 'Fotos']);
    expect(editor(wrapper).findRow(1)?.findField(2)?.findControl()?.findLink()?.getElement().getAttribute('href')).toBe(
      '/media/c/2/files/1/a.pdf',
    );
    typeInto(wrapper, 'Nome', 'Catálogo 2026');
    act(() => editor(wrapper).findRow(2)?.findRemoveButton()?.click());
    click(modal, '+ Adicionar');
    typeOptionName(wrapper, 2, 'Vídeo');
    chooseFile(wrapper, 2, new File(['mp4'], 'video.mp4', { type: 'video/mp4' }));
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('PUT')[0]?.body).toEqual({
      name: 'Catálogo 2026',
      message: 'Seguem os catálogos',
      options: [{ id: 1, name: 'Preços' }, { name: 'Vídeo' }],
    });
    const form = api.sent('POST')[0]?.body as FormData;
    expect(form.getAll('id')).toEqual(['3']);
    expect(columnTexts(wrapper, 1)).toEqual(['Catálogo 2026']);
  });

  it('refuses a file over 3.5 MB before sending anything, and shows the fields the server names', async () => {
    const api = filesApi(() => [STORED], {
      'PUT /files/1': () =>
        json(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid request',
          fields: [{ field: 'body.name', reason: 'nome muito curto' }],
        }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar Catálogo');
    const modal = openModal(wrapper);
    chooseFile(wrapper, 1, pdf('grande.pdf', FILE_LIST_FILE_MAX_BYTES + 1));
    expect(fileErrorOf(wrapper, 1)).toBe('O arquivo deve ter no máximo 3,5 MB.');
    click(modal, 'Salvar');
    expect(api.sent('PUT')).toHaveLength(0);

    chooseFile(wrapper, 1, pdf('pequeno.pdf'));
    click(modal, 'Salvar');
    // Not errorOf inside waitFor: Cloudscape's finders mark elements while they search, and waitFor runs
    // again on every DOM change, so the two would chase each other.
    await screen.findByText('Dados inválidos. Verifique os campos e tente novamente.');
    expect(errorOf(wrapper, 'Nome')).toBe('nome muito curto');
    expect(api.sent('POST')).toHaveLength(0);
    expect(noOpenModal(wrapper)).toBe(false);
  });

  it("sends big selections in requests the server takes, and shares the server's limits", () => {
    expect([
      FILE_LIST_FILE_MAX_BYTES,
      FILE_LIST_MAX_OPTIONS,
      FILE_LIST_UPLOAD_MAX_BYTES,
      FILE_LIST_UPLOAD_MAX_FILES,
    ]).toEqual([
      contracts.FILE_LIST_FILE_MAX_BYTES,
      contracts.FILE_LIST_MAX_OPTIONS,
      contracts.FILE_LIST_UPLOAD_MAX_BYTES,
      contracts.FILE_LIST_UPLOAD_MAX_FILES,
    ]);
    const mb = 1024 * 1024;
    const files = [3 * mb, 2 * mb, 1 * mb, 3.5 * mb].map((size, i) => ({
      optionId: i + 1,
      file: pdf(`${i}.pdf`, size),
    }));
    expect(uploadBatches(files).map((b) => b.map((f) => f.optionId))).toEqual([[1], [2, 3], [4]]);
    const many = Array.from({ length: 12 }, (_, i) => ({ optionId: i + 1, file: pdf(`${i}.pdf`) }));
    expect(uploadBatches(many).map((b) => b.length)).toEqual([10, 2]);
  });
});
