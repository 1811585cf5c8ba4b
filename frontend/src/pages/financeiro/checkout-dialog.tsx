import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import Wizard from '@cloudscape-design/components/wizard';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { companyChannel } from '@contracts/realtime';
import { ApiError } from '@/api/api-error';
import { getMe } from '@/api/auth';
import { CUSTOM_PLAN, customPlanPrice, subscribe, type Invoice, type PaymentResult } from '@/api/billing';
import { listOfferedProviders, type PaymentProviderName } from '@/api/payments';
import { useNotifications } from '@/components/notifications';
import { useRequest } from '@/hooks/use-request';
import { useCurrentUser } from '@/components/shell/shell-context';
import { formatDueDate } from '@/components/shell/subscription';
import { pageReload } from '@/hooks/page-reload';
import { useChannel } from '@/realtime/use-socket';
import { brl } from '@/pages/settings/plans-manager';

/** Administration §9: the success returns home after 4 s; the copy confirmation lasts 1 s. */
export const RETURN_HOME_MS = 4_000;
export const COPIED_MS = 1_000;

const DETAIL_FIELDS = ['firstName', 'zipcode', 'address2', 'city', 'state', 'country'] as const;
type DetailField = (typeof DETAIL_FIELDS)[number];
/** Administration §5: name, CPF/CNPJ (zipcode), address, city and country are required. */
const REQUIRED: Partial<Record<DetailField, string>> = {
  firstName: 'billing.checkout.errors.firstName',
  zipcode: 'billing.checkout.errors.zipcode',
  address2: 'billing.checkout.errors.address2',
  city: 'billing.checkout.errors.city',
  country: 'billing.checkout.errors.country',
};

/** How often the payment step rereads the company's due date (the socket's event is the fast path). */
const PAYMENT_POLL_MS = 5_000;

function PaymentStep({ result, onDone }: { result: PaymentResult; onDone: (dueDate: string) => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(result.qrcode?.qrcode ?? '');
    } catch {
      // No clipboard (an insecure origin): the code is on screen to select by hand.
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  const user = useCurrentUser();
  useChannel(companyChannel(user.companyId, 'payment'), (event) => {
    const company = event.company as { dueDate?: unknown } | undefined;
    if (event.action === 'CONCLUIDA' && typeof company?.dueDate === 'string') onDone(company.dueDate);
  });
  // An expired company has no socket (D157 refuses it): the company's due date, read every few seconds,
  // tells the payment too — it moves only when the payment's transaction commits (D153).
  const startDue = useRef(user.company?.dueDate);
  useEffect(() => {
    const timer = setInterval(() => {
      getMe().then(
        (me) => {
          const due = me.company?.dueDate;
          if (typeof due === 'string' && due !== startDue.current) onDone(due);
        },
        () => undefined,
      );
    }, PAYMENT_POLL_MS);
    return () => clearInterval(timer);
  }, [onDone]);
  const links = [
    ['stripeURL', result.stripeURL],
    ['asaasURL', result.asaasURL],
    ['mercadopagoURL', result.mercadopagoURL],
  ].filter((l): l is [string, string] => typeof l[1] === 'string');
  return (
    <SpaceBetween size="m">
      <Box variant="h3">{t('billing.checkout.payment.title', { value: result.valorext })}</Box>
      {result.qrcode && (
        <SpaceBetween size="s">
          {result.qrcode.imagemQrcode && (
            <img src={result.qrcode.imagemQrcode} alt={t('billing.checkout.payment.qrAlt')} width={240} height={240} />
          )}
          <FormField label={t('billing.checkout.payment.code')}>
            <Input readOnly value={result.qrcode.qrcode} ariaLabel={t('billing.checkout.payment.code')} />
          </FormField>
          <Button iconName={copied ? 'check' : 'copy'} onClick={() => void copy()}>
            {copied ? t('billing.checkout.payment.copied') : t('billing.checkout.payment.copy')}
          </Button>
        </SpaceBetween>
      )}
      {links.length > 0 && (
        <SpaceBetween direction="horizontal" size="xs">
          {links.map(([name, href]) => (
            <Button key={name} href={href} target="_blank" iconName="external" iconAlign="right">
              {t(`billing.checkout.payment.${name}`)}
            </Button>
          ))}
        </SpaceBetween>
      )}
      <Box color="text-body-secondary">{t('billing.checkout.payment.waiting')}</Box>
    </SpaceBetween>
  );
}

/**
 * The checkout (administration §2, §4, §5; decisions D154): a wizard of Dados, Personalizar and Revisar that
 * opens on Personalizar (index 1); 'PAGAR' posts the subscription and shows the payment step — the PIX QR
 * code with its copy button and the card providers' links. The payment event CONCLUIDA shows the success
 * with the new due date and, 4 s later, returns home with the session read again.
 */
export function CheckoutDialog({ invoice, onDismiss }: { invoice: Invoice; onDismiss: () => void }) {
  const { t } = useTranslation();
  const notify = useNotifications();
  const navigate = useNavigate();
  const [step, setStep] = useState(1);
  const [details, setDetails] = useState<Record<DetailField, string>>({
    firstName: '',
    zipcode: '',
    address2: '',
    city: '',
    state: '',
    country: 'BR',
  });
  const [shown, setShown] = useState(false);
  const [custom, setCustom] = useState(false);
  const [users, setUsers] = useState(String(Math.max(CUSTOM_PLAN.minUsers, invoice.users)));
  const [connections, setConnections] = useState(String(Math.max(CUSTOM_PLAN.minConnections, invoice.connections)));
  const [paying, setPaying] = useState(false);
  const [result, setResult] = useState<PaymentResult | null>(null);
  const [paidUntil, setPaidUntil] = useState<string | null>(null);
  const [serverProblems, setServerProblems] = useState<Record<string, string>>({});
  // The offered providers (decisions D168): PIX by default; a card provider's page when the payer picks it.
  const offered = useRequest((signal) => listOfferedProviders({ signal }), []);
  const providers = offered.status === 'ready' ? offered.data.providers : [];
  const [chosen, setChosen] = useState<PaymentProviderName | null>(null);
  const provider = chosen ?? (providers.includes('efi') ? 'efi' : (providers[0] ?? null));

  const problems = Object.fromEntries(
    Object.entries(REQUIRED)
      .filter(([field]) => details[field as DetailField].trim() === '')
      .map(([field, key]) => [field, t(key)]),
  ) as Partial<Record<DetailField, string>>;
  const counter = (v: string) => Math.max(0, Math.floor(Number(v) || 0));
  const counterProblem = (v: string, min: number) =>
    custom && counter(v) < min ? t('billing.checkout.errors.minimum', { count: min }) : undefined;
  const usersProblem = counterProblem(users, CUSTOM_PLAN.minUsers);
  const connectionsProblem = counterProblem(connections, CUSTOM_PLAN.minConnections);
  const price = custom ? customPlanPrice(counter(users), counter(connections)) : invoice.value;

  useEffect(() => {
    if (!paidUntil) return;
    const timer = setTimeout(() => {
      // The reload waits for the navigation: home is a lazy route, so the URL changes only once its chunk
      // is in, and a reload before that would read /financeiro again.
      void Promise.resolve(navigate('/')).then(() => pageReload.reload());
    }, RETURN_HOME_MS);
    return () => clearTimeout(timer);
  }, [paidUntil, navigate]);

  const pay = async () => {
    setShown(true);
    if (Object.keys(problems).length > 0) return setStep(0);
    if (usersProblem || connectionsProblem) return setStep(1);
    setPaying(true);
    setServerProblems({});
    try {
      const answer = await subscribe({
        invoiceId: invoice.id,
        ...details,
        ...(custom ? { users: counter(users), connections: counter(connections) } : {}),
        ...(provider ? { provider } : {}),
        price,
        plan: { detail: invoice.detail, custom },
      });
      setResult(answer);
      notify.success(t('billing.checkout.subscribed'));
    } catch (err) {
      if (err instanceof ApiError) {
        setServerProblems(Object.fromEntries(err.fields.map((f) => [f.field.replace(/^body\./, ''), f.reason])));
      }
      notify.error(err);
    } finally {
      setPaying(false);
    }
  };

  const field = (name: DetailField) => (
    <FormField
      key={name}
      label={t(`billing.checkout.fields.${name}`)}
      errorText={(shown ? problems[name] : undefined) ?? serverProblems[name]}
    >
      <Input
        value={details[name]}
        onChange={({ detail }) => setDetails((d) => ({ ...d, [name]: detail.value }))}
        ariaLabel={t(`billing.checkout.fields.${name}`)}
      />
    </FormField>
  );

  return (
    <Modal visible size="large" header={t('billing.checkout.title')} onDismiss={() => !paying && onDismiss()}>
      {paidUntil ? (
        <Alert type="success" header={t('billing.checkout.paid.title')}>
          {t('billing.checkout.paid.text', { date: formatDueDate(paidUntil) })}
        </Alert>
      ) : result ? (
        <PaymentStep result={result} onDone={setPaidUntil} />
      ) : (
        <Wizard
          activeStepIndex={step}
          onNavigate={({ detail }) => setStep(detail.requestedStepIndex)}
          onCancel={onDismiss}
          onSubmit={() => void pay()}
          isLoadingNextStep={paying}
          allowSkipTo
          i18nStrings={{
            stepNumberLabel: (n) => t('billing.checkout.step', { n }),
            collapsedStepsLabel: (n, total) => t('billing.checkout.stepOf', { n, total }),
            navigationAriaLabel: t('billing.checkout.stepsLabel'),
            cancelButton: t('billing.checkout.cancel'),
            previousButton: t('billing.checkout.previous'),
            nextButton: t('billing.checkout.next'),
            skipToButtonLabel: (s) => t('billing.checkout.skipTo', { title: s.title }),
          }}
          submitButtonText={t('billing.checkout.pay')}
          steps={[
            {
              title: t('billing.checkout.steps.details'),
              content: <ColumnLayout columns={2}>{DETAIL_FIELDS.map(field)}</ColumnLayout>,
            },
            {
              title: t('billing.checkout.steps.plan'),
              content: (
                <SpaceBetween size="m">
                  <KeyValuePairs
                    columns={4}
                    items={[
                      { label: t('billing.invoices.columns.detail'), value: invoice.detail },
                      { label: t('billing.invoices.columns.users'), value: invoice.users },
                      { label: t('billing.invoices.columns.connections'), value: invoice.connections },
                      { label: t('billing.invoices.columns.value'), value: brl(invoice.value) },
                    ]}
                  />
                  <Toggle checked={custom} onChange={({ detail }) => setCustom(detail.checked)}>
                    {t('billing.checkout.custom.toggle')}
                  </Toggle>
                  {custom && (
                    <ColumnLayout columns={3}>
                      <FormField label={t('billing.checkout.custom.users')} errorText={usersProblem}>
                        <Input type="number" value={users} onChange={({ detail }) => setUsers(detail.value)} />
                      </FormField>
                      <FormField label={t('billing.checkout.custom.connections')} errorText={connectionsProblem}>
                        <Input
                          type="number"
                          value={connections}
                          onChange={({ detail }) => setConnections(detail.value)}
                        />
                      </FormField>
                      <FormField label={t('billing.checkout.custom.price')}>
                        <Box variant="h3">{brl(price)}</Box>
                      </FormField>
                    </ColumnLayout>
                  )}
                </SpaceBetween>
              ),
            },
            {
              title: t('billing.checkout.steps.review'),
              content: (
                <SpaceBetween size="l">
                  <KeyValuePairs
                    columns={3}
                    items={[
                      { label: t('billing.checkout.fields.firstName'), value: details.firstName || '—' },
                      { label: t('billing.checkout.fields.zipcode'), value: details.zipcode || '—' },
                      { label: t('billing.invoices.columns.dueDate'), value: formatDueDate(invoice.dueDate) },
                      { label: t('billing.invoices.columns.users'), value: custom ? counter(users) : invoice.users },
                      {
                        label: t('billing.invoices.columns.connections'),
                        value: custom ? counter(connections) : invoice.connections,
                      },
                      { label: t('billing.checkout.total'), value: brl(price) },
                    ]}
                  />
                  {providers.length > 1 && (
                    <FormField label={t('payments.checkout.method')} errorText={serverProblems.provider}>
                      <RadioGroup
                        value={provider}
                        onChange={({ detail }) => setChosen(detail.value as PaymentProviderName)}
                        items={providers.map((p) => ({ value: p, label: t(`payments.checkout.methods.${p}`) }))}
                      />
                    </FormField>
                  )}
                </SpaceBetween>
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
