import { describe, expect, it } from 'vitest';
import { connectionRow } from '@/testing/connection-fixtures';
import {
  firstTabWithError,
  newConnectionValues,
  serverErrors,
  toInput,
  touchedFields,
  validateConnection,
  valuesOf,
} from './connection-form';

const NOW = new Date('2026-06-15T12:00:00Z');

describe('connection form rules (core spec §5)', () => {
  it('checks every rule on create: vacation dates with a message, their order, import dates', () => {
    const values = {
      ...newConnectionValues(),
      name: 'Atendimento',
      collectiveVacationMessage: 'Estamos de férias',
      importOldMessages: '2024-06-14',
      importRecentMessages: '2026-06-16',
    };
    expect(validateConnection(values, { npsInUse: false, now: NOW })).toEqual({
      collectiveVacationStart: 'connections.validation.vacationDates',
      collectiveVacationEnd: 'connections.validation.vacationDates',
      importOldMessages: 'connections.validation.importTooOld',
      importRecentMessages: 'connections.validation.importFuture',
    });
    const ordered = {
      ...values,
      collectiveVacationStart: '2026-12-20',
      collectiveVacationEnd: '2026-12-01',
      importOldMessages: '2026-05-01',
      importRecentMessages: '2026-04-01',
    };
    expect(validateConnection(ordered, { npsInUse: false, now: NOW })).toEqual({
      collectiveVacationEnd: 'connections.validation.vacationOrder',
      importRecentMessages: 'connections.validation.importRecentBeforeOld',
    });
  });

  it('asks for a greeting with more than one queue, and whole minutes in the number fields', () => {
    const values = { ...newConnectionValues(), name: 'Vendas', queueIds: [1, 2], expiresTicket: '1.5' };
    expect(validateConnection(values, { npsInUse: false, now: NOW })).toEqual({
      greetingMessage: 'backendErrors.ERR_WAPP_GREETING_REQUIRED',
      expiresTicket: 'connections.validation.wholeMinutes',
    });
  });

  it('on edit applies a cross-field rule only when one of its fields changed, like the server', () => {
    const stored = valuesOf(connectionRow(3, 'Antiga', { importOldMessages: '2020-01-01' }));
    const renamed = { ...stored, name: 'Antiga renomeada' };
    const touched = touchedFields(renamed, stored);
    expect([...(touched ?? [])]).toEqual(['name']);
    // NPS turned on since, and an import date now older than 2 years: an unrelated edit still passes.
    expect(validateConnection(renamed, { npsInUse: true, touched, now: NOW })).toEqual({});
    const cleared = { ...renamed, ratingMessage: ' ' };
    expect(validateConnection(cleared, { npsInUse: true, touched: touchedFields(cleared, stored), now: NOW })).toEqual({
      ratingMessage: 'connections.validation.npsRatingMessage',
      expiresTicketNPS: 'connections.validation.npsWaitTime',
    });
  });

  it('sends every field with the channel on create, only the changes on edit', () => {
    const stored = valuesOf(connectionRow(3, 'Vendas'));
    expect(toInput({ ...stored, maxUseBotQueues: '03', name: ' Vendas ' }, stored, 'whatsapp')).toEqual({});
    expect(toInput({ ...stored, expiresTicket: '30', importOldMessages: '2026-01-02' }, stored, 'whatsapp')).toEqual({
      expiresTicket: 30,
      importOldMessages: '2026-01-02',
    });
    const created = toInput({ ...newConnectionValues(), name: 'Nova' }, undefined, 'instagram');
    expect(created).toMatchObject({ name: 'Nova', channel: 'instagram', expiresTicket: 0, importOldMessages: null });
  });

  it("maps the server's fields to the form's, translating known reasons, and finds the first tab to open", () => {
    const errors = serverErrors([
      { field: 'body.schedules.2.endTimeB', reason: 'must be HH:MM' },
      { field: 'body.ratingMessage', reason: 'É obrigado informar uma mensagem de avaliação quando se utiliza o NPS.' },
      { field: 'body.queueIds', reason: 'no queue 7' },
    ]);
    expect(errors).toEqual({
      'schedules.2.endTimeB': 'connections.validation.time',
      ratingMessage: 'connections.validation.npsRatingMessage',
      queueIds: 'raw:no queue 7',
    });
    // The connection's queues are chosen on the Chatbot tab (decisions D98).
    expect(firstTabWithError(errors, ['general', 'chatbot', 'assessments', 'schedules'])).toBe('chatbot');
    expect(firstTabWithError({ 'schedules.0.startTimeA': 'x' }, ['general', 'schedules'])).toBe('schedules');
  });
});
