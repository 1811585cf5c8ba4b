import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Multiselect from '@cloudscape-design/components/multiselect';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import Toggle from '@cloudscape-design/components/toggle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createNote,
  deleteNote,
  listNotes,
  listTags,
  moveTicketToLane,
  syncContactTags,
  type TicketNote,
} from '@/api/tags';
import {
  setContactActive,
  toggleContactAcceptAudio,
  updateContact,
  type Ticket,
  type TicketContact,
} from '@/api/tickets';
import { ConfirmModal } from '@/components/confirm-modal';
import { useNotifications } from '@/components/notifications';
import { useRequest } from '@/hooks/use-request';
import { formatPhone, formatShortDateTime } from './format';
import { useTicketScreen } from './ticket-screen-context';

/** Core spec §5: a note needs at least 2 characters. */
export const NOTE_MIN = 2;

/** The ticket's kanban lane, by the board's own move (one conditional write; decisions D101). */
const setTicketKanbanTag = async (ticketId: number, tagId: number | null): Promise<void> => {
  await moveTicketToLane(ticketId, tagId);
};
/**
 * The contact drawer (core spec §2, 320 px): accept-audio toggle, picture, name (click to edit), number
 * (masked by the server for plain users when the company hides numbers), e-mail, extra info, block or
 * unblock, tags, the kanban stage when kanban tags exist, and the notes (author and DD/MM/YY HH:mm,
 * delete with confirmation).
 */
export function ContactDrawer({
  ticket,
  onClose,
  onTicket,
}: {
  ticket: Ticket;
  onClose: () => void;
  onTicket: (t: Ticket) => void;
}) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const { tags } = useTicketScreen();
  const contact = ticket.contact;
  const setContact = (next: Partial<TicketContact>) => onTicket({ ...ticket, contact: { ...contact, ...next } });
  const [editingName, setEditingName] = useState(false);
  const [name, setName] = useState(contact.name);
  const [email, setEmail] = useState(contact.email);
  const [extra, setExtra] = useState(contact.extraInfo.map((e) => ({ name: e.name, value: e.value })));
  const [saving, setSaving] = useState(false);
  const kanbanTags = useRequest((signal) => listTags({ kanban: 1 }, { signal }), []);
  const notes = useRequest(
    (signal) => listNotes({ ticketId: ticket.id, contactId: contact.id }, { signal }),
    [ticket.id, contact.id],
  );
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState('');
  const [deletingNote, setDeletingNote] = useState<TicketNote | null>(null);

  const run = async <T,>(call: () => Promise<T>, success?: string): Promise<T | undefined> => {
    try {
      const answer = await call();
      if (success) notifications.success(success);
      return answer;
    } catch (err) {
      notifications.error(err);
      return undefined;
    }
  };

  const save = async () => {
    setSaving(true);
    const answer = await run(
      () => updateContact(contact.id, { name, email, extraInfo: extra.filter((e) => e.name.trim()) }),
      t('tickets.drawer.saved'),
    );
    if (answer) {
      setContact({ name: answer.name ?? name, email: answer.email ?? email, extraInfo: answer.extraInfo ?? extra });
      setEditingName(false);
    }
    setSaving(false);
  };

  const kanbanOptions = (kanbanTags.status === 'ready' ? kanbanTags.data : []).map((tag) => ({
    value: String(tag.id),
    label: tag.name,
  }));
  const currentKanban = kanbanOptions.find((o) => ticket.tags.some((tag) => String(tag.id) === o.value)) ?? null;
  const tagOptions = tags.map((tag) => ({ value: String(tag.id), label: tag.name }));
  const contactTagIds = contact.tags.map((tag) => tag.id);

  return (
    <Container
      header={
        <Header
          variant="h3"
          actions={<Button variant="icon" iconName="close" ariaLabel={t('common.close')} onClick={onClose} />}
        >
          {t('tickets.drawer.title')}
        </Header>
      }
    >
      <SpaceBetween size="s">
        <Toggle
          checked={contact.acceptAudioMessage}
          onChange={() =>
            void run(() => toggleContactAcceptAudio(contact.id)).then((answer) => {
              if (answer) setContact({ acceptAudioMessage: answer.acceptAudioMessage ?? !contact.acceptAudioMessage });
            })
          }
        >
          {t('tickets.drawer.acceptAudio')}
        </Toggle>
        {contact.urlPicture && (
          <img src={contact.urlPicture} alt={contact.name} style={{ width: 96, height: 96, borderRadius: '50%' }} />
        )}
        {editingName ? (
          <FormField label={t('tickets.drawer.name')}>
            <Input value={name} onChange={({ detail }) => setName(detail.value)} />
          </FormField>
        ) : (
          <Button variant="inline-link" onClick={() => setEditingName(true)} ariaLabel={t('tickets.drawer.editName')}>
            <Box variant="h3">{contact.name}</Box>
          </Button>
        )}
        <Box data-testid="drawer-number">{formatPhone(contact.number)}</Box>
        <FormField label={t('tickets.drawer.email')}>
          <Input value={email} onChange={({ detail }) => setEmail(detail.value)} type="email" />
        </FormField>
        <FormField label={t('tickets.drawer.extraInfo')}>
          <SpaceBetween size="xxs">
            {extra.map((e, i) => (
              <SpaceBetween key={i} direction="horizontal" size="xxs">
                <Input
                  value={e.name}
                  ariaLabel={t('tickets.drawer.extraName')}
                  onChange={({ detail }) =>
                    setExtra((all) => all.map((x, j) => (j === i ? { ...x, name: detail.value } : x)))
                  }
                />
                <Input
                  value={e.value}
                  ariaLabel={t('tickets.drawer.extraValue')}
                  onChange={({ detail }) =>
                    setExtra((all) => all.map((x, j) => (j === i ? { ...x, value: detail.value } : x)))
                  }
                />
                <Button
                  variant="icon"
                  iconName="remove"
                  ariaLabel={t('tickets.drawer.removeExtra')}
                  onClick={() => setExtra((all) => all.filter((_, j) => j !== i))}
                />
              </SpaceBetween>
            ))}
            <Button variant="inline-link" onClick={() => setExtra((all) => [...all, { name: '', value: '' }])}>
              {t('tickets.drawer.addExtra')}
            </Button>
          </SpaceBetween>
        </FormField>
        <Button onClick={() => void save()} loading={saving}>
          {t('tickets.drawer.save')}
        </Button>
        <Button
          onClick={() =>
            void run(
              () => setContactActive(contact.id, !contact.active),
              t(contact.active ? 'tickets.drawer.blocked' : 'tickets.drawer.unblocked'),
            ).then((answer) => {
              if (answer) setContact({ active: !contact.active });
            })
          }
        >
          {t(contact.active ? 'tickets.drawer.block' : 'tickets.drawer.unblock')}
        </Button>
        <FormField label={t('tickets.drawer.tags')}>
          <Multiselect
            selectedOptions={tagOptions.filter((o) => contactTagIds.includes(Number(o.value)))}
            options={tagOptions}
            placeholder={t('tickets.drawer.tagsPlaceholder')}
            onChange={({ detail }) => {
              const ids = detail.selectedOptions.map((o) => Number(o.value));
              void run(() =>
                syncContactTags(
                  contact.id,
                  ids.map((id) => ({ id })),
                ),
              ).then(() => setContact({ tags: ids.map((id) => ({ id })) }));
            }}
          />
        </FormField>
        {kanbanOptions.length > 0 && (
          <FormField label={t('tickets.drawer.kanban')}>
            <Select
              selectedOption={currentKanban}
              options={[{ value: '', label: t('tickets.drawer.kanbanNone') }, ...kanbanOptions]}
              placeholder={t('tickets.drawer.kanbanNone')}
              onChange={({ detail }) => {
                const tagId = detail.selectedOption.value ? Number(detail.selectedOption.value) : null;
                void run(
                  () => setTicketKanbanTag(ticket.id, tagId),
                  t(tagId ? 'tickets.drawer.kanbanAdded' : 'tickets.drawer.kanbanRemoved'),
                ).then(() => onTicket({ ...ticket, tags: tagId ? [{ id: tagId }] : [] }));
              }}
            />
          </FormField>
        )}
        {/* The field's label names the textarea (a FormField label wins over an aria-label). */}
        <FormField label={t('tickets.drawer.newNote')} errorText={noteError}>
          <SpaceBetween size="xxs">
            <Textarea
              value={note}
              rows={2}
              onChange={({ detail }) => {
                setNote(detail.value);
                setNoteError('');
              }}
            />
            <Button
              onClick={() => {
                if (note.trim().length < NOTE_MIN) return setNoteError(t('tickets.drawer.noteTooShort'));
                void run(
                  () => createNote({ note: note.trim(), ticketId: ticket.id, contactId: contact.id }),
                  t('tickets.drawer.noteAdded'),
                ).then((added) => {
                  if (added) {
                    setNote('');
                    notes.reload();
                  }
                });
              }}
            >
              {t('tickets.drawer.addNote')}
            </Button>
          </SpaceBetween>
        </FormField>
        {notes.status === 'ready' && (
          <ul style={{ padding: 0, margin: 0 }} aria-label={t('tickets.drawer.notes')}>
            {notes.data.map((n) => (
              <li
                key={n.id}
                style={{ listStyle: 'none', borderBottom: '1px solid rgba(127,127,127,0.2)', padding: '4px 0' }}
              >
                <Box>{n.note}</Box>
                <Box fontSize="body-s" color="text-body-secondary">
                  {n.user?.name ?? ''} · {formatShortDateTime(n.createdAt)}
                  <Button
                    variant="icon"
                    iconName="remove"
                    ariaLabel={t('tickets.drawer.deleteNote')}
                    onClick={() => setDeletingNote(n)}
                  />
                </Box>
              </li>
            ))}
          </ul>
        )}
      </SpaceBetween>
      {deletingNote && (
        <ConfirmModal
          header={t('tickets.drawer.deleteNoteTitle')}
          cancelText={t('tickets.closeAll.no')}
          confirmText={t('tickets.closeAll.yes')}
          running={false}
          onDismiss={() => setDeletingNote(null)}
          onConfirm={() => {
            const target = deletingNote;
            setDeletingNote(null);
            void run(() => deleteNote(target.id), t('tickets.drawer.noteDeleted')).then(() => notes.reload());
          }}
        >
          {deletingNote.note}
        </ConfirmModal>
      )}
    </Container>
  );
}
