import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n';
import { ApiError } from './api-error';
import { errorText } from './error-text';

const text = (err: unknown) =>
  errorText(err, { t: (key, values) => i18n.t(key, values ?? {}), exists: (key) => i18n.exists(key) });

describe('errorText (the toast text rule, core spec §8)', () => {
  it('translates a code that has a translation, in the current language', async () => {
    const err = new ApiError(403, 'ERR_NO_PERMISSION', 'No permission');
    expect(text(err)).toBe('Você não tem permissão para acessar este recurso.');
    await i18n.changeLanguage('en');
    expect(text(err)).toBe('You do not have permission to access this resource.');
  });

  it('shows the raw code when there is no translation for it', () => {
    expect(text(new ApiError(409, 'ERR_SOMETHING_NEW', 'Something new happened'))).toBe('ERR_SOMETHING_NEW');
  });

  it('shows the message of an answer without a code', () => {
    expect(text(new ApiError(502, undefined, 'HTTP 502'))).toBe('HTTP 502');
  });

  it('shows a plain string as it is', () => {
    expect(text('Selecione uma fila')).toBe('Selecione uma fila');
  });

  it('falls back to the generic text for anything else', async () => {
    expect(text(new TypeError('x is undefined'))).toBe('Ocorreu um erro!');
    expect(text(undefined)).toBe('Ocorreu um erro!');
    await i18n.changeLanguage('en');
    expect(text({ weird: true })).toBe('An error occurred!');
  });

  it("shows the expired subscription's due date from the answer's details, in every language", async () => {
    const err = new ApiError(403, 'ERR_SUBSCRIPTION_EXPIRED', 'Subscription expired on 2026-03-05', {
      details: { dueDate: '2026-03-05' },
    });
    expect(text(err)).toBe('Sua assinatura venceu em 05/03/2026. Regularize o pagamento em Financeiro.');
    await i18n.changeLanguage('en');
    expect(text(err)).toBe('Your subscription expired on 05/03/2026. Settle the payment under Financial.');
    await i18n.changeLanguage('es');
    expect(text(err)).toBe('Su suscripción venció el 05/03/2026. Regularice el pago en Finanzas.');
    await i18n.changeLanguage('tr');
    expect(text(err)).toBe('Aboneliğinizin süresi 05/03/2026 tarihinde doldu. Ödemeyi Finans bölümünden yapın.');
  });

  it('translates network failures', () => {
    expect(text(ApiError.network(new TypeError('Failed to fetch')))).toBe(
      'Não foi possível conectar ao servidor. Verifique sua conexão.',
    );
  });
});
