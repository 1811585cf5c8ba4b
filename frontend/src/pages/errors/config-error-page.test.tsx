import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@/config';
import { ConfigErrorPage } from './config-error-page';

describe('config error page', () => {
  it('explains that the system cannot start, with the cause under the details and a reload button', () => {
    render(<ConfigErrorPage error={new ConfigError('/config.json answered HTTP 404')} />);
    const alert = createWrapper().findAlert();

    expect(alert?.findHeader()?.getElement().textContent).toBe('Não foi possível iniciar o sistema');
    expect(alert?.findActionSlot()?.findButton()?.getElement().textContent).toBe('Recarregar');
    const details = createWrapper().findExpandableSection();
    expect(details?.findHeaderText()?.getElement().textContent).toBe('Detalhes técnicos');
    details?.findExpandButton().click();
    expect(details?.findContent().getElement().textContent).toBe('/config.json answered HTTP 404');
  });
});
