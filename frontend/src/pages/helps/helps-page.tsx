import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { helpPlayer, helpThumbnail, listHelps, type Help } from '@/api/helps';
import { useErrorText } from '@/hooks/use-error-text';
import { useRequest } from '@/hooks/use-request';

/**
 * /helps (core §2; administration spec "Help"; decisions D146): the platform's help videos as cards
 * (thumbnail, title, description); a card opens the embedded player, which Escape (or its close button)
 * closes. Every signed-in user may open it; the menu shows the entry only while an entry exists.
 */
export function HelpsPage() {
  const { t } = useTranslation();
  const textOf = useErrorText();
  const helps = useRequest((signal) => listHelps({ signal }), []);
  const [playing, setPlaying] = useState<Help | null>(null);

  return (
    <ContentLayout header={<Header variant="h1">{t('helps.title')}</Header>}>
      {helps.status === 'error' ? (
        <Alert
          type="error"
          header={t('helps.loadError')}
          action={<Button onClick={helps.reload}>{t('common.retry')}</Button>}
        >
          {textOf(helps.error)}
        </Alert>
      ) : (
        <Cards
          items={helps.status === 'ready' ? helps.data : []}
          loading={helps.status === 'loading'}
          loadingText={t('helps.loading')}
          trackBy="id"
          cardsPerRow={[{ cards: 1 }, { minWidth: 500, cards: 2 }, { minWidth: 900, cards: 3 }]}
          empty={<Box textAlign="center">{t('helps.empty')}</Box>}
          cardDefinition={{
            header: (h) => (
              <Link onFollow={() => setPlaying(h)} ariaLabel={t('helps.watch', { title: h.title })}>
                {h.title}
              </Link>
            ),
            sections: [
              {
                id: 'thumbnail',
                content: (h) => (
                  <button
                    type="button"
                    onClick={() => setPlaying(h)}
                    aria-label={t('helps.watch', { title: h.title })}
                    style={{ border: 0, padding: 0, background: 'none', cursor: 'pointer', width: '100%' }}
                  >
                    <img
                      src={helpThumbnail(h.video)}
                      alt=""
                      loading="lazy"
                      style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 8 }}
                    />
                  </button>
                ),
              },
              { id: 'description', content: (h) => h.description },
            ],
          }}
        />
      )}
      <Modal
        visible={playing !== null}
        size="large"
        header={playing?.title}
        closeAriaLabel={t('helps.close')}
        onDismiss={() => setPlaying(null)}
      >
        {playing && (
          <iframe
            title={t('helps.player', { title: playing.title })}
            src={helpPlayer(playing.video)}
            style={{ width: '100%', aspectRatio: '16 / 9', border: 0 }}
            allow="autoplay; encrypted-media; picture-in-picture"
            allowFullScreen
          />
        )}
      </Modal>
    </ContentLayout>
  );
}
