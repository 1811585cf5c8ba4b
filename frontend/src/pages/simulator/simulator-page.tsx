import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '@/api/api-error';
import { isCustomerNumber, listSimulatorReceived, type SimulatedCustomer } from '@/api/simulator';
import { SimulatorPhone } from '@/components/simulator-phone';
import { useCurrentUser } from '@/components/shell/shell-context';
import { AccessDeniedPage } from '@/pages/errors/access-denied-page';
import { can, connectionsRoleOf } from '@/permissions';

const MAX_RECENT = 8;

type Probe = 'checking' | 'ready' | 'unavailable' | 'error';

function CustomerPicker({
  recent,
  current,
  onPick,
}: {
  recent: SimulatedCustomer[];
  current: SimulatedCustomer | null;
  onPick: (customer: SimulatedCustomer) => void;
}) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [numberError, setNumberError] = useState('');
  const submit = () => {
    const digits = number.replace(/\D/g, '');
    if (!isCustomerNumber(digits)) {
      setNumberError(t('simulator.customer.invalidNumber'));
      return;
    }
    setNumberError('');
    const trimmed = name.trim();
    onPick(trimmed ? { number: digits, name: trimmed } : { number: digits });
  };
  return (
    <Container header={<Header variant="h2">{t('simulator.customer.title')}</Header>}>
      <SpaceBetween size="s">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <SpaceBetween direction="horizontal" size="s" alignItems="end">
            <FormField
              label={t('simulator.customer.number')}
              description={t('simulator.customer.numberHint')}
              errorText={numberError}
            >
              <Input value={number} inputMode="tel" onChange={({ detail }) => setNumber(detail.value)} />
            </FormField>
            <FormField label={t('simulator.customer.name')}>
              <Input value={name} onChange={({ detail }) => setName(detail.value)} />
            </FormField>
            <Button formAction="submit">{t('simulator.customer.open')}</Button>
          </SpaceBetween>
        </form>
        {recent.length > 0 && (
          <SpaceBetween direction="horizontal" size="xs" alignItems="center">
            <Box variant="small">{t('simulator.customer.recent')}</Box>
            {recent.map((c) => (
              <Button
                key={c.number}
                variant={current?.number === c.number ? 'primary' : 'normal'}
                onClick={() => onPick(c)}
              >
                {c.name ? `${c.name} (${c.number})` : c.number}
              </Button>
            ))}
          </SpaceBetween>
        )}
      </SpaceBetween>
    </Container>
  );
}

function Simulator({ whatsappId }: { whatsappId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [probe, setProbe] = useState<Probe>(
    Number.isInteger(whatsappId) && whatsappId > 0 ? 'checking' : 'unavailable',
  );
  const [recent, setRecent] = useState<SimulatedCustomer[]>([]);
  const [customer, setCustomer] = useState<SimulatedCustomer | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!(Number.isInteger(whatsappId) && whatsappId > 0)) return undefined;
    const controller = new AbortController();
    setProbe('checking');
    listSimulatorReceived(whatsappId, { limit: 1 }, { signal: controller.signal }).then(
      () => setProbe('ready'),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setProbe(err instanceof ApiError && err.status === 404 ? 'unavailable' : 'error');
      },
    );
    return () => controller.abort();
  }, [whatsappId, attempt]);

  const pick = (next: SimulatedCustomer) => {
    setCustomer(next);
    setRecent((list) => [next, ...list.filter((c) => c.number !== next.number)].slice(0, MAX_RECENT));
  };

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={t('simulator.description')}
          actions={<Button onClick={() => void navigate('/connections')}>{t('simulator.back')}</Button>}
        >
          {t('simulator.title')}
        </Header>
      }
    >
      {probe === 'checking' && <Spinner size="large" />}
      {probe === 'unavailable' && (
        <Alert type="info" header={t('simulator.unavailable.title')}>
          {t('simulator.unavailable.text')}
        </Alert>
      )}
      {probe === 'error' && (
        <Alert
          type="error"
          header={t('simulator.loadError')}
          action={<Button onClick={() => setAttempt((n) => n + 1)}>{t('common.retry')}</Button>}
        />
      )}
      {probe === 'ready' && (
        <SpaceBetween size="l">
          <CustomerPicker recent={recent} current={customer} onPick={pick} />
          {customer ? (
            <SimulatorPhone key={customer.number} whatsappId={whatsappId} customer={customer} />
          ) : (
            <Box color="text-body-secondary">{t('simulator.customer.none')}</Box>
          )}
        </SpaceBetween>
      )}
    </ContentLayout>
  );
}

/**
 * /connections/:whatsappId/simulator (decisions D36, D41): the phone of the simulated customers of one
 * connection. Pick a customer, write, reply, send a file or react as them, mark as read, and read the whole
 * chat as their phone shows it: both sides in order, WhatsApp's formatting, quotes, files and ticks. Connection managers only; a deployment without the simulator driver gets an info
 * message (the routes answer 404 there).
 */
export function SimulatorPage() {
  const user = useCurrentUser();
  const { whatsappId } = useParams();
  if (!can(connectionsRoleOf(user), 'connections-page:actionButtons')) return <AccessDeniedPage />;
  return <Simulator whatsappId={Number(whatsappId)} />;
}
