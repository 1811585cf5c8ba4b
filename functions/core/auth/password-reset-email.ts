import type { EmailMessage } from '../email/email-sender';

/**
 * The password-reset e-mail, in Portuguese (the product's default language; the request carries no
 * language). The code is in the body only: subjects show up in notification previews and mail lists.
 */
export const passwordResetEmail = (to: string, code: string, validMinutes: number): EmailMessage => ({
  to,
  subject: 'Código para redefinir sua senha',
  text: [
    'Olá!',
    '',
    'Recebemos um pedido para redefinir a senha da sua conta.',
    '',
    `Seu código de verificação é: ${code}`,
    '',
    `Ele vale por ${validMinutes} minutos e pode ser usado uma única vez. Um novo pedido substitui este código.`,
    '',
    'Se você não pediu a redefinição, ignore este e-mail: sua senha continua a mesma.',
  ].join('\n'),
});
