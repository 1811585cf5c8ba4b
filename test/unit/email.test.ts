import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig, resetConfigForTests } from '../../functions/shared/config';
import { passwordResetEmail } from '../../functions/core/auth/password-reset-email';
import { emailSender, setEmailSenderForTests } from '../../functions/core/email/email-sender';
import { createOutboxEmailSender, type OutboxMessage } from '../../functions/core/email/outbox-email-sender';
import { createSesEmailSender } from '../../functions/core/email/ses-email-sender';

const message = { to: 'ana@example.com', subject: 'Assunto çé', text: 'Linha 1\nLinha 2: 012345' };

describe('the outbox e-mail adapter', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zapdesk-outbox-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each message as one JSON file, named in sending order, creating the folder', async () => {
    const outbox = join(dir, 'nested', 'outbox');
    const sender = createOutboxEmailSender({ dir: outbox, from: 'no-reply@zapdesk.local' });
    await sender.send(message);
    await sender.send({ ...message, to: 'bruno@example.com' });

    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.json') && !f.startsWith('.'))).toBe(true);
    const [first, second] = await Promise.all(
      files.map(async (f) => JSON.parse(await readFile(join(outbox, f), 'utf8')) as OutboxMessage),
    );
    expect(first).toEqual({ ...message, from: 'no-reply@zapdesk.local', sentAt: expect.any(String) });
    expect(second!.to).toBe('bruno@example.com');
    expect(Date.parse(first!.sentAt)).toBeLessThanOrEqual(Date.parse(second!.sentAt));
  });
});

describe('the SES e-mail adapter', () => {
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());

  it('sends one SESv2 SendEmail from the configured sender, subject and text in UTF-8', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const client = new SESv2Client({ region: 'sa-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    await createSesEmailSender({ from: 'acesso@zapdesk.com.br', client }).send(message);

    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'acesso@zapdesk.com.br',
      Destination: { ToAddresses: ['ana@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Assunto çé', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Linha 1\nLinha 2: 012345', Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('lets a refusal from SES reach the caller (the request fails, it is not reported as sent)', async () => {
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    const client = new SESv2Client({ region: 'sa-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    await expect(createSesEmailSender({ from: 'a@b.co', client }).send(message)).rejects.toThrow('not verified');
  });
});

describe('choosing the adapter', () => {
  afterEach(() => {
    setEmailSenderForTests(undefined);
    delete process.env.EMAIL_OUTBOX_DIR;
    delete process.env.EMAIL_FROM;
    resetConfigForTests();
  });

  it('is the outbox when EMAIL_OUTBOX_DIR is set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zapdesk-outbox-'));
    try {
      process.env.EMAIL_OUTBOX_DIR = dir;
      resetConfigForTests();
      setEmailSenderForTests(undefined);
      await emailSender().send(message);
      expect(await readdir(dir)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is SES otherwise, and needs EMAIL_FROM for it', () => {
    resetConfigForTests();
    setEmailSenderForTests(undefined);
    expect(() => emailSender()).toThrow(/EMAIL_FROM is required/);
    process.env.EMAIL_FROM = 'no-reply@zapdesk.com.br';
    resetConfigForTests();
    expect(emailSender()).toBeDefined();
  });

  it('refuses an EMAIL_FROM that is not an address at cold start', () => {
    expect(() => parseConfig({ TABLE_NAME: 't', APP_SECRET: 'x'.repeat(32), EMAIL_FROM: 'zapdesk' })).toThrow(
      /EMAIL_FROM/,
    );
  });
});

describe('the password-reset e-mail', () => {
  it('is Portuguese, carries the code and its validity in the body, and keeps the code out of the subject', () => {
    const mail = passwordResetEmail('ana@example.com', '042917', 15);
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toBe('Código para redefinir sua senha');
    expect(mail.subject).not.toContain('042917');
    expect(mail.text).toContain('Seu código de verificação é: 042917');
    expect(mail.text).toContain('15 minutos');
  });
});
