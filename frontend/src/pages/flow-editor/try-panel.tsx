import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listConnections, type Connection } from '@/api/connections';
import { getFlowTestPosition, startFlowTest, type FlowTestPosition, type FlowTestStart } from '@/api/flows';
import { useNotifications } from '@/components/notifications';
import { POLL_MS, SimulatorPhone } from '@/components/simulator-phone';

/**
 * Trying the flow on the phone simulator (issue 17 item 7; decisions D160): pick a connected WhatsApp
 * connection, "Iniciar teste" makes the saved flow its welcome flow and gives a new customer; chat as them
 * beside the canvas, while the run's current node is read every POLL_MS and handed to the canvas.
 */
export function TryPanel({
  flowId,
  dirty,
  onPosition,
  onClose,
}: {
  flowId: number;
  /** Unsaved changes: the test runs the saved version, so the panel says so. */
  dirty: boolean;
  onPosition: (run: FlowTestPosition['run']) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [test, setTest] = useState<FlowTestStart | null>(null);
  const [run, setRun] = useState<FlowTestPosition['run']>(null);
  const [starting, setStarting] = useState(false);

  const loadFailed = useEffectEvent((err: unknown) => {
    notify.error(err);
    setConnections([]);
  });
  useEffect(() => {
    const controller = new AbortController();
    listConnections({ signal: controller.signal }).then(
      (list) => {
        const usable = list.filter((c) => c.channel === 'whatsapp' && c.status === 'CONNECTED');
        setConnections(usable);
        setWhatsappId((current) => current ?? usable[0]?.id ?? null);
      },
      (err: unknown) => {
        if (!controller.signal.aborted) loadFailed(err);
      },
    );
    return () => controller.abort();
  }, []);

  const moved = useEffectEvent((next: FlowTestPosition['run']) => {
    setRun(next);
    onPosition(next);
  });
  useEffect(() => {
    if (!test) return undefined;
    const controller = new AbortController();
    const read = () =>
      getFlowTestPosition(
        flowId,
        { whatsappId: test.whatsappId, number: test.number },
        { signal: controller.signal },
      ).then(
        (p) => moved(p.run),
        () => undefined, // a failed read stays quiet: the next one tries again
      );
    void read();
    const timer = setInterval(() => void read(), POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [flowId, test]);

  const start = async () => {
    if (whatsappId === null) return;
    setStarting(true);
    try {
      const started = await startFlowTest({ flowId, whatsappId });
      setRun(null);
      onPosition(null);
      setTest(started);
    } catch (err) {
      notify.error(err);
    } finally {
      setStarting(false);
    }
  };

  const options = (connections ?? []).map((c) => ({ value: String(c.id), label: c.name }));
  const status = !test
    ? null
    : run === null
      ? t('flowEditor.test.waitingCustomer')
      : run.status === 'ended'
        ? t('flowEditor.test.ended', { reason: run.endReason ?? '' })
        : t('flowEditor.test.onNode', { step: run.step });

  return (
    <Container
      header={
        <Header
          variant="h2"
          description={t('flowEditor.test.description')}
          actions={<Button variant="icon" iconName="close" ariaLabel={t('flowEditor.test.close')} onClick={onClose} />}
        >
          {t('flowEditor.test.title')}
        </Header>
      }
    >
      <SpaceBetween size="m">
        {dirty && <Alert type="warning">{t('flowEditor.test.unsaved')}</Alert>}
        {connections !== null && connections.length === 0 ? (
          <Alert type="info">{t('flowEditor.test.noConnection')}</Alert>
        ) : (
          <SpaceBetween direction="horizontal" size="xs" alignItems="end">
            <FormField label={t('flowEditor.test.connection')}>
              <Select
                selectedOption={options.find((o) => Number(o.value) === whatsappId) ?? null}
                options={options}
                statusType={connections === null ? 'loading' : 'finished'}
                onChange={({ detail }) => setWhatsappId(Number(detail.selectedOption.value))}
              />
            </FormField>
            <Button onClick={() => void start()} loading={starting} disabled={whatsappId === null}>
              {test ? t('flowEditor.test.restart') : t('flowEditor.test.start')}
            </Button>
          </SpaceBetween>
        )}
        {test && (
          <>
            <Box variant="small" data-testid="flow-test-status">
              {t('flowEditor.test.customer', { number: test.number, version: test.version })} {status}
            </Box>
            <SimulatorPhone
              key={test.number}
              whatsappId={test.whatsappId}
              customer={{ number: test.number, name: t('flowEditor.test.customerName') }}
              compact
            />
          </>
        )}
      </SpaceBetween>
    </Container>
  );
}
