import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { getCampaignReport, type Campaign, type CampaignReport } from '@/api/campaigns';
import { useCurrentUser } from '@/components/shell/shell-context';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';
import { companyChannel } from '@contracts/realtime';
import { dateTime } from './campaigns-page';

/** Administration §4: a live update marking the campaign FINALIZADA reloads the report after 5 seconds. */
export const RELOAD_AFTER_FINISH_MS = 5000;

function Card({ label, value }: { label: string; value: string | number }) {
  return (
    <div role="group" aria-label={label}>
      <Box variant="awsui-key-label">{label}</Box>
      <Box variant="h2" tagOverride="p">
        {value}
      </Box>
    </div>
  );
}

/**
 * /campaign/{campaignId}/report (administration spec "Campaigns" report; decisions D134, D136): the status
 * line, a progress bar (shipments done of the valid contacts), cards for valid contacts, confirmations
 * requested and received, delivered, connection, contact list, scheduled and concluded time, and per
 * message variant the contacts, delivered, read and replied. Live from `company-{id}-campaign`; when an
 * update says FINALIZADA the report reloads after RELOAD_AFTER_FINISH_MS.
 */
export function CampaignReportPage() {
  const { t, i18n } = useTranslation();
  const textOf = useErrorText();
  const user = useCurrentUser();
  const id = Number(useParams().campaignId);
  const report = useRequest((signal) => getCampaignReport(id, { signal }), [id]);
  const [live, setLive] = useState<Campaign | null>(null);
  const [finishedAt, setFinishedAt] = useState<number | null>(null);

  useChannel(companyChannel(user.companyId, 'campaign'), (event) => {
    const record = event.record as Campaign | undefined;
    if (!record || record.id !== id) return;
    setLive(record);
    if (record.status === 'FINALIZADA') setFinishedAt(Date.now());
  });
  useOnReconnect(report.reload);
  const { reload } = report;
  useEffect(() => {
    if (finishedAt === null) return;
    const timer = setTimeout(() => {
      setLive(null);
      reload();
    }, RELOAD_AFTER_FINISH_MS);
    return () => clearTimeout(timer);
  }, [finishedAt, reload]);

  if (report.status === 'loading') {
    return (
      <Box textAlign="center" padding="xl">
        <Spinner size="large" />
      </Box>
    );
  }
  if (report.status === 'error') {
    return (
      <Alert type="error" action={<Button onClick={report.reload}>{t('common.retry')}</Button>}>
        {textOf(report.error)}
      </Alert>
    );
  }
  const data: CampaignReport = report.data;
  const c = live && live.updatedAt >= data.campaign.updatedAt ? { ...data.campaign, ...live } : data.campaign;
  const percent =
    c.validContacts > 0 ? Math.round((c.done / c.validContacts) * 100) : c.status === 'FINALIZADA' ? 100 : 0;
  return (
    <ContentLayout header={<Header variant="h1">{t('campaignReport.title', { name: c.name })}</Header>}>
      <SpaceBetween size="l">
        <Container
          header={
            <Header variant="h2">
              {t('campaignReport.statusLine', { status: t(`campaigns.status.${c.status}`) })}
            </Header>
          }
        >
          <ProgressBar
            value={percent}
            label={t('campaignReport.progress')}
            description={t('campaignReport.progressText', { done: c.done, total: c.validContacts })}
          />
        </Container>
        <Container>
          <ColumnLayout columns={4} variant="text-grid">
            <Card label={t('campaignReport.validContacts')} value={c.validContacts} />
            <Card label={t('campaignReport.confirmationRequested')} value={c.confirmationRequested} />
            <Card label={t('campaignReport.confirmed')} value={c.confirmed} />
            <Card label={t('campaignReport.delivered')} value={c.delivered} />
            <Card label={t('campaignReport.failed')} value={c.failed} />
            <Card label={t('campaignReport.read')} value={c.read} />
            <Card label={t('campaignReport.replied')} value={c.replied} />
            <Card label={t('campaignReport.whatsapp')} value={c.whatsapp?.name ?? '—'} />
            <Card
              label={t('campaignReport.contactList')}
              value={c.contactList?.name ?? (c.tagListId ? t('campaigns.byTag') : '—')}
            />
            <Card label={t('campaignReport.scheduledAt')} value={dateTime(c.scheduledAt, i18n.language)} />
            <Card label={t('campaignReport.completedAt')} value={dateTime(c.completedAt, i18n.language)} />
          </ColumnLayout>
        </Container>
        <Table
          header={<Header variant="h2">{t('campaignReport.variants')}</Header>}
          items={data.variants}
          trackBy="variant"
          empty={<Box textAlign="center">{t('campaignReport.noVariants')}</Box>}
          columnDefinitions={[
            {
              id: 'variant',
              header: t('campaignReport.variant'),
              cell: (v) => t('campaignReport.variantName', { n: v.variant }),
              isRowHeader: true,
            },
            { id: 'contacts', header: t('campaignReport.contacts'), cell: (v) => v.contacts },
            { id: 'delivered', header: t('campaignReport.delivered'), cell: (v) => v.delivered },
            { id: 'read', header: t('campaignReport.read'), cell: (v) => v.read },
            { id: 'replied', header: t('campaignReport.replied'), cell: (v) => v.replied },
          ]}
        />
      </SpaceBetween>
    </ContentLayout>
  );
}
