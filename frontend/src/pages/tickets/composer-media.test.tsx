import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESIGNED_UPLOAD_MIN_BYTES } from '@/api/messages';
import { openModal } from '@/pages/users/test-kit';
import { json } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { messageRow } from './ticket-fixtures';
import { conversationApi, openTicket, openTickets } from './ticket-test-kit';

beforeAll(async () => {
  await Promise.all([import('@/components/shell/app-shell'), import('./tickets-page'), import('./ticket-view')]);
}, 30_000);

afterEach(() => {
  vi.unstubAllGlobals();
});

const UPLOAD = {
  key: 'c/2/tickets/12/uploads/u-1/tabela.pdf',
  uploadUrl: 'http://localhost:3000/_s3/media/c/2/tickets/12/uploads/u-1/tabela.pdf?X-Amz-Signature=abc',
  method: 'PUT',
  headers: { 'content-type': 'application/pdf' },
  expiresIn: 900,
};

/** Picks `file` in the composer, writes its caption and sends the preview. */
const sendFile = async (wrapper: ReturnType<typeof createWrapper>, file: File, caption: string) => {
  await screen.findByTestId('composer', {}, { timeout: 3000 });
  act(() => void fireEvent.change(screen.getByTestId('file-input'), { target: { files: [file] } }));
  await waitFor(() => expect(openModal(wrapper).getElement().textContent).toContain('Enviar arquivos'));
  const modal = createWrapper(openModal(wrapper).getElement());
  const field = modal.findFormField()!;
  expect(field.findLabel()!.getElement().textContent).toBe(`Legenda de ${file.name}`);
  act(() => field.findControl()!.findTextarea()!.setTextareaValue(caption));
  act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
};

describe('composer files (multipart below 1 MB, presigned above)', () => {
  it('a small file goes as the spec multipart with its caption', async () => {
    const sent: FormData[] = [];
    const api = conversationApi(openTicket, {
      'POST /messages/12': (request) => {
        sent.push(request.body as FormData);
        return json(201, messageRow('new-1', 12, 'foto', { fromMe: true, mediaType: 'image' }));
      },
    });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await sendFile(wrapper, new File([new Uint8Array(2048)], 'foto.png', { type: 'image/png' }), 'Nossa loja');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toBeInstanceOf(FormData);
    expect((sent[0]!.get('medias') as File).name).toBe('foto.png');
    expect(sent[0]!.get('body')).toBe('Nossa loja');
    expect(api.calls('POST', '/messages/uploads/12')).toHaveLength(0);
  });

  it('a file over 1 MB is PUT to the presigned URL with the signed headers, then sent as {mediaKey}', async () => {
    const puts: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        puts.push({ url, init });
        return new Response(null, { status: 200 });
      }),
    );
    const api = conversationApi(openTicket, {
      'POST /messages/uploads/12': () => json(201, UPLOAD),
      'POST /messages/12': () =>
        json(201, messageRow('new-2', 12, 'tabela', { fromMe: true, mediaType: 'application' })),
    });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    const big = new File([new Uint8Array(PRESIGNED_UPLOAD_MIN_BYTES + 1)], 'tabela.pdf', { type: 'application/pdf' });
    await sendFile(wrapper, big, 'Tabela de preços');
    await waitFor(() => expect(api.calls('POST', '/messages/12')).toHaveLength(1));
    expect(api.calls('POST', '/messages/uploads/12')[0]?.body).toEqual({
      filename: 'tabela.pdf',
      contentType: 'application/pdf',
      size: PRESIGNED_UPLOAD_MIN_BYTES + 1,
    });
    expect(puts).toHaveLength(1);
    expect(puts[0]!.url).toBe(UPLOAD.uploadUrl);
    expect(puts[0]!.init.method).toBe('PUT');
    expect(puts[0]!.init.headers).toEqual({ 'content-type': 'application/pdf' });
    expect((puts[0]!.init.body as File).size).toBe(PRESIGNED_UPLOAD_MIN_BYTES + 1);
    expect(api.calls('POST', '/messages/12')[0]?.body).toEqual({
      body: 'Tabela de preços',
      mediaKey: UPLOAD.key,
      fromMe: true,
      read: 1,
    });
  });

  it('a refused upload sends no message and keeps the preview open with an error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<Error><Code>SignatureDoesNotMatch</Code></Error>', { status: 403 })),
    );
    const api = conversationApi(openTicket, { 'POST /messages/uploads/12': () => json(201, UPLOAD) });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    const big = new File([new Uint8Array(PRESIGNED_UPLOAD_MIN_BYTES + 10)], 'tabela.pdf', { type: 'application/pdf' });
    await sendFile(wrapper, big, '');
    await waitFor(() => expect(toastTexts(wrapper).length).toBeGreaterThan(0));
    expect(api.calls('POST', '/messages/12')).toHaveLength(0);
    expect(openModal(wrapper).getElement().textContent).toContain('tabela.pdf');
  });
});
