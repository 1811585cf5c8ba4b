import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Toggle from '@cloudscape-design/components/toggle';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, render, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from '@/api/api-error';
import { AppServicesProvider } from '@/app-services';
import { NotificationsProvider } from '@/components/notifications';
import { buttonNamed, click, noOpenModal, openModal } from '@/components/test-kit';
import { changeLanguage } from '@/i18n';
import { RealtimeSocket } from '@/realtime/socket';
import { createSessionUserStore } from '@/session-user';
import { fakeWebSocketServer } from '@/testing/fake-web-socket';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { TEST_CONFIG } from '@/testing/render-app';
import { FormModal, FormModalLoading } from './form-modal';

interface Values {
  shortcode: string;
  message: string;
  geral: boolean;
  file: File | null;
}

const EMPTY: Values = { shortcode: '', message: '', geral: false, file: null };

/** The spec's texts through i18n: the keys are the quick replies' ('Obrigatório', the 2.5 MB limit). */
const schema = z.object({
  shortcode: z.string().check(z.trim(), z.minLength(1, 'quickMessages.dialog.required')),
  message: z.string(),
  geral: z.boolean(),
  file: z
    .custom<File | null>()
    .check(z.refine((file) => file === null || file.size <= 10, 'quickMessages.dialog.mediaTooLarge')),
});

type Submit = (parsed: z.output<typeof schema>, values: Values) => Promise<string>;

function Dialog({
  onSubmit,
  onSaved,
  onDismiss,
  initial = EMPTY,
  visible,
}: {
  onSubmit: Submit;
  onSaved: (result: string) => void;
  onDismiss: () => void;
  initial?: Values;
  visible?: boolean;
}) {
  return (
    <FormModal
      title="Resposta"
      visible={visible}
      initial={initial}
      schema={schema}
      checkAtOnce={['file']}
      onSubmit={onSubmit}
      onSaved={onSaved}
      onDismiss={onDismiss}
      savedText="Salvo!"
    >
      {(form) => (
        <>
          <FormField label="Atalho" errorText={form.error('shortcode')}>
            <Input {...form.text('shortcode')} />
          </FormField>
          <FormField label="Mensagem" errorText={form.error('message')}>
            <Input {...form.text('message')} />
          </FormField>
          <FormField label="Global">
            <Toggle {...form.toggle('geral')}>Compartilhar</Toggle>
          </FormField>
          <FormField label="Anexo" errorText={form.error('file')}>
            <Button onClick={() => form.set({ file: new File(['x'.repeat(11)], 'big.txt') })}>grande</Button>
          </FormField>
        </>
      )}
    </FormModal>
  );
}

const renderDialog = (props: Partial<Parameters<typeof Dialog>[0]> = {}) => {
  const onSubmit = vi.fn<Submit>(async (parsed) => `saved ${parsed.shortcode}`);
  const onSaved = vi.fn();
  const onDismiss = vi.fn();
  const socket = new RealtimeSocket({
    url: TEST_CONFIG.wsUrl,
    getToken: () => 't',
    WebSocketImpl: fakeWebSocketServer().WebSocket,
  });
  const all = { onSubmit, onSaved, onDismiss, ...props };
  const view = render(
    <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
      <NotificationsProvider>
        <Dialog {...all} />
      </NotificationsProvider>
    </AppServicesProvider>,
  );
  return { ...view, ...all, wrapper: createWrapper() };
};

describe('FormModal', () => {
  it("shows the schema's messages in the current language after the first save, and sends nothing", async () => {
    const { wrapper, onSubmit } = renderDialog();
    expect(errorOf(wrapper, 'Atalho')).toBeNull();
    click(openModal(wrapper), 'Salvar');
    expect(errorOf(wrapper, 'Atalho')).toBe('Obrigatório');
    typeInto(wrapper, 'Atalho', '   ');
    expect(errorOf(wrapper, 'Atalho')).toBe('Obrigatório');
    typeInto(wrapper, 'Atalho', 'oi');
    expect(errorOf(wrapper, 'Atalho')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();

    await act(() => changeLanguage('en'));
    typeInto(wrapper, 'Atalho', '');
    expect(errorOf(wrapper, 'Atalho')).toBe('Required');
  });

  it('checks the checkAtOnce fields as soon as they change', () => {
    const { wrapper, onSubmit } = renderDialog();
    click(openModal(wrapper), 'grande');
    expect(errorOf(wrapper, 'Anexo')).toBe('O arquivo deve ter no máximo 2,5 MB.');
    expect(errorOf(wrapper, 'Atalho')).toBeNull();
    typeInto(wrapper, 'Atalho', 'oi');
    click(openModal(wrapper), 'Salvar');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('saves what the schema made of the values, then toasts and hands over the answer', async () => {
    const { wrapper, onSubmit, onSaved } = renderDialog();
    typeInto(wrapper, 'Atalho', '  promo ');
    act(() => fieldByLabel(wrapper, 'Global').findControl()!.findToggle()!.findNativeInput().click());
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('saved promo'));
    expect(onSubmit).toHaveBeenCalledWith(
      { shortcode: 'promo', message: '', geral: true, file: null },
      { shortcode: '  promo ', message: '', geral: true, file: null },
    );
    expect(toastTexts(wrapper)).toEqual(['Salvo!']);
  });

  it("shows a server 400's field reasons on their fields, the error toast, and keeps the dialog open", async () => {
    const refused = new ApiError(400, 'ERR_VALIDATION', 'invalid', {
      fields: [
        { field: 'body.shortcode', reason: 'Atalho já existe' },
        { field: 'body.message', reason: 'Too Long!' },
      ],
    });
    const { wrapper, onSaved, onDismiss } = renderDialog({ onSubmit: vi.fn<Submit>().mockRejectedValue(refused) });
    typeInto(wrapper, 'Atalho', 'promo');
    click(openModal(wrapper), 'Salvar');

    // (Not errorOf inside waitFor: Cloudscape's finders mark the DOM, which re-runs waitFor's check at once.)
    await waitFor(() =>
      expect(toastTexts(wrapper)).toEqual(['Dados inválidos. Verifique os campos e tente novamente.']),
    );
    expect(errorOf(wrapper, 'Atalho')).toBe('Atalho já existe');
    expect(errorOf(wrapper, 'Mensagem')).toBe('Too Long!');
    expect(buttonNamed(openModal(wrapper), 'Salvar').isDisabled()).toBe(false);
    expect(onSaved).not.toHaveBeenCalled();
    expect(onDismiss).not.toHaveBeenCalled();

    // Editing a field clears its server problem, not the others'.
    typeInto(wrapper, 'Atalho', 'promo2');
    expect(errorOf(wrapper, 'Atalho')).toBeNull();
    expect(errorOf(wrapper, 'Mensagem')).toBe('Too Long!');
  });

  it('cancel closes without saving; while saving neither cancel nor dismiss closes it', async () => {
    const first = renderDialog();
    typeInto(first.wrapper, 'Atalho', 'promo');
    click(openModal(first.wrapper), 'Cancelar');
    expect(first.onDismiss).toHaveBeenCalledTimes(1);
    expect(first.onSubmit).not.toHaveBeenCalled();
    first.unmount();

    let finish: (value: string) => void = () => undefined;
    const pending = renderDialog({ onSubmit: () => new Promise<string>((resolve) => (finish = resolve)) });
    typeInto(pending.wrapper, 'Atalho', 'promo');
    click(openModal(pending.wrapper), 'Salvar');
    expect(buttonNamed(openModal(pending.wrapper), 'Cancelar').isDisabled()).toBe(true);
    act(() => openModal(pending.wrapper).findDismissButton().click());
    expect(pending.onDismiss).not.toHaveBeenCalled();
    await act(async () => finish('ok'));
    expect(pending.onSaved).toHaveBeenCalledWith('ok');
  });

  it('starts again from the initial values each time it opens', () => {
    function Reopening() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <Button onClick={() => setOpen(true)}>abrir</Button>
          <Dialog
            visible={open}
            initial={{ ...EMPTY, shortcode: 'bomdia' }}
            onSubmit={vi.fn()}
            onSaved={vi.fn()}
            onDismiss={() => setOpen(false)}
          />
        </>
      );
    }
    const socket = new RealtimeSocket({
      url: TEST_CONFIG.wsUrl,
      getToken: () => 't',
      WebSocketImpl: fakeWebSocketServer().WebSocket,
    });
    render(
      <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
        <NotificationsProvider>
          <Reopening />
        </NotificationsProvider>
      </AppServicesProvider>,
    );
    const wrapper = createWrapper();
    typeInto(wrapper, 'Atalho', '');
    click(openModal(wrapper), 'Salvar');
    expect(errorOf(wrapper, 'Atalho')).toBe('Obrigatório');
    click(openModal(wrapper), 'Cancelar');
    expect(noOpenModal(wrapper)).toBe(true);

    click(wrapper, 'abrir');
    expect(fieldByLabel(wrapper, 'Atalho').findControl()?.findInput()?.getInputValue()).toBe('bomdia');
    expect(errorOf(wrapper, 'Atalho')).toBeNull();
  });
});

describe('FormModalLoading', () => {
  it('shows the read in progress, then its error with a retry; cancel closes', () => {
    const onDismiss = vi.fn();
    const reload = vi.fn();
    const socket = new RealtimeSocket({
      url: TEST_CONFIG.wsUrl,
      getToken: () => 't',
      WebSocketImpl: fakeWebSocketServer().WebSocket,
    });
    const frame = (request: Parameters<typeof FormModalLoading>[0]['request']) => (
      <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
        <FormModalLoading
          title="Editar"
          request={request}
          loadingText="Carregando registro"
          errorHeader="Não foi possível carregar"
          onDismiss={onDismiss}
        />
      </AppServicesProvider>
    );
    const view = render(frame({ status: 'loading' }));
    const wrapper = createWrapper();
    expect(openModal(wrapper).findContent().getElement().textContent).toBe('Carregando registro');

    view.rerender(frame({ status: 'error', error: new ApiError(500, 'ERR_INTERNAL', 'boom'), reload }));
    expect(openModal(wrapper).findContent().getElement().textContent).toContain('Não foi possível carregar');
    click(openModal(wrapper), 'Tentar novamente');
    expect(reload).toHaveBeenCalledTimes(1);
    click(openModal(wrapper), 'Cancelar');
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
