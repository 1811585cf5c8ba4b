import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '@/api/connections';
import { click, columnTexts, noOpenModal, openModal } from '@/pages/users/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';

/**
 * The import of old messages on /connections (core spec §4; decisions D78, D79): the progress button with
 * live counts, disabled for 35 seconds after the import began, the refresh at its end, and the button that
 * closes the imported tickets.
 */
type View = ReturnType<typeof renderApp>;
type Wrapper = View['wrapper'];
const SESSION_COLUMN = 5;

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const openConnections = async (list: Connection[], extra: Record<string, Route> = {}) => {
  let reads = 0;
  const api = fakeApi({
    ...shellRoutes(authUser(), fullPlan()),
    'GET /whatsapp': () => {
      reads += 1;
      return json(200, list);
    },
    ...extra,
  });
  const view = renderApp({ path: '/connections', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /^Conexões/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, 1)).toHaveLength(list.length));
  act(() => view.socket.start());
  act(() => view.server.latest().accept());
  const push = (event: object) => act(() => view.server.latest().push(event));
  return { ...view, api, push, reads: () => reads };
};

/** The session cell's buttons of a row, by their text (disabled ones marked). */
const sessionButtons = (wrapper: Wrapper, row: number) =>
  createWrapper(wrapper.findTable()!.findBodyCell(row, SESSION_COLUMN)!.getElement())
    .findAllButtons()
    .map((b) => `${(b.findTextRegion() ?? b).getElement().textContent}${b.isDisabled() ? ' (disabled)' : ''}`);

beforeAll(async () => {
  await Promise.all([import('@/components/shell/app-shell'), import('./connections-page')]);
}, 30_000);

describe('import of old messages on /connections', () => {
  it('shows preparing, then live counts; the button waits 35 s from the start, then opens the progress', async () => {
    const view = await openConnections([
      connectionRow(1, 'Recém-pareada', { statusImportMessages: 'preparing', importStartedAt: ago(1_000) }),
      connectionRow(2, 'Quase', { statusImportMessages: 'preparing', importStartedAt: ago(34_700) }),
      connectionRow(3, 'Sem importação'),
    ]);
    expect(sessionButtons(view.wrapper, 1)).toEqual(['Desconectar', 'Preparando importação… (disabled)']);
    // Why it waits is said on the button (its disabled reason).
    expect(view.wrapper.findTable()!.findBodyCell(1, SESSION_COLUMN)!.getElement().textContent).toContain(
      'A importação está começando; aguarde alguns segundos.',
    );
    expect(sessionButtons(view.wrapper, 3)).toEqual(['Desconectar']);

    view.push({
      channel: 'importMessages-2',
      action: 'update',
      status: { whatsappId: 1, this: 3, all: 10, state: 'running', startedAt: ago(1_000) },
    });
    expect(sessionButtons(view.wrapper, 1)).toEqual(['Desconectar', 'Importando mensagens 3 de 10 (disabled)']);
    // Another connection's progress is not this row's.
    view.push({
      channel: 'importMessages-2',
      action: 'update',
      status: { whatsappId: 9, this: 7, all: 8, state: 'running', startedAt: ago(1_000) },
    });
    expect(sessionButtons(view.wrapper, 1)).toEqual(['Desconectar', 'Importando mensagens 3 de 10 (disabled)']);

    // 35 seconds after its start the second row's button opens the details.
    await waitFor(() => expect(sessionButtons(view.wrapper, 2)).toEqual(['Desconectar', 'Preparando importação…']), {
      timeout: 2_000,
    });
    click(view.wrapper.findTable()!.findBodyCell(2, SESSION_COLUMN)!, 'Preparando importação…');
    expect(openModal(view.wrapper).findHeader().getElement().textContent).toBe('Importação de mensagens — Quase');
    click(openModal(view.wrapper), 'Ok');
    expect(noOpenModal(view.wrapper)).toBe(true);
  });

  it('reads the list again when the import ends', async () => {
    const view = await openConnections([
      connectionRow(1, 'Importando', { statusImportMessages: 'running', importStartedAt: ago(60_000) }),
    ]);
    const before = view.reads();
    view.push({ channel: 'importMessages-2', action: 'refresh', whatsappId: 1 });
    await waitFor(() => expect(view.reads()).toBe(before + 1));
  });

  it('closes the imported tickets after a confirmation and says how many; a refusal is a toast', async () => {
    let answer = json(200, { closed: 2, hasMore: false });
    const view = await openConnections(
      [
        connectionRow(1, 'Importada', {
          statusImportMessages: 'renderButtonCloseTickets',
          importStartedAt: ago(60_000),
        }),
      ],
      { 'POST /closedimported/1': () => answer },
    );
    expect(sessionButtons(view.wrapper, 1)).toEqual(['Desconectar', 'Encerrar atendimentos importados']);

    click(view.wrapper, 'Encerrar atendimentos importados');
    expect(openModal(view.wrapper).findHeader().getElement().textContent).toBe(
      'Encerrar os atendimentos importados de Importada?',
    );
    click(openModal(view.wrapper), 'Encerrar');
    await waitFor(() => expect(toastTexts(view.wrapper)).toContain('2 atendimentos importados encerrados.'));
    expect(view.api.requests.filter((r) => r.method === 'POST' && r.path === '/closedimported/1')).toHaveLength(1);
    expect(noOpenModal(view.wrapper)).toBe(true);

    answer = json(403, { error: 'ERR_NO_PERMISSION', message: 'no' });
    click(view.wrapper, 'Encerrar atendimentos importados');
    click(openModal(view.wrapper), 'Encerrar');
    await waitFor(() => expect(toastTexts(view.wrapper).length).toBe(2));
    expect(toastTexts(view.wrapper)[1]).not.toContain('encerrados');
  });
});
