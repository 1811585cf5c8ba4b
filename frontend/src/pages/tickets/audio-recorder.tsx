import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotifications } from '@/components/notifications';

/** Core spec §4, §9: recordings under 10 000 bytes are discarded. */
export const MIN_AUDIO_BYTES = 10_000;

/** Whether a finished recording is long enough to send. */
export const keepRecording = (blob: Blob): boolean => blob.size >= MIN_AUDIO_BYTES;

/**
 * Records from the microphone with the browser's MediaRecorder (its own chunk: only loaded when the
 * attendant presses the microphone). A denied microphone is reported; a too-short recording is discarded.
 */
export function AudioRecorder({ onDone, onCancel }: { onDone: (blob: Blob) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const notifications = useNotifications();
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const cancelled = useRef(false);
  const [seconds, setSeconds] = useState(0);

  useEffect(() => {
    let stream: MediaStream | null = null;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: true });
        const r = new MediaRecorder(stream);
        r.ondataavailable = (event) => chunks.current.push(event.data);
        r.onstop = () => {
          stream?.getTracks().forEach((track) => track.stop());
          if (cancelled.current) return;
          const blob = new Blob(chunks.current, { type: r.mimeType || 'audio/webm' });
          if (keepRecording(blob)) onDone(blob);
          else {
            notifications.notify('warning', t('tickets.composer.audioTooShort'));
            onCancel();
          }
        };
        r.start();
        recorder.current = r;
      } catch {
        notifications.notify('error', t('tickets.composer.microphoneDenied'));
        onCancel();
      }
    };
    void start();
    return () => {
      clearInterval(timer);
      cancelled.current = true;
      if (recorder.current?.state === 'recording') recorder.current.stop();
      stream?.getTracks().forEach((track) => track.stop());
    };
    // Runs once per recording.
  }, []);

  return (
    <SpaceBetween direction="horizontal" size="xs" alignItems="center">
      <Box color="text-status-error">● {t('tickets.composer.recording', { seconds })}</Box>
      <Button
        variant="icon"
        iconName="close"
        ariaLabel={t('tickets.composer.cancelRecording')}
        onClick={() => {
          cancelled.current = true;
          recorder.current?.stop();
          onCancel();
        }}
      />
      <Button
        variant="primary"
        iconName="check"
        ariaLabel={t('tickets.composer.finishRecording')}
        onClick={() => recorder.current?.stop()}
      />
    </SpaceBetween>
  );
}
