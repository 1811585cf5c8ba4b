import type { PaymentProviderName, PaymentProvidersView } from '@contracts/billing';
import { api } from './transport';

/**
 * The platform owner's payment settings (core §3 "Global settings", §5 "Certificate upload", §7; server:
 * functions/core/settings/global-settings.ts and payment-certificate.ts; decisions D167–D169): the
 * providers' credentials (write-only, read back masked), the offered providers and the PIX certificate.
 */
export type { PaymentProviderName };

/** The credential keys per provider, in the tab's order. */
export const PAYMENT_CREDENTIALS: Record<PaymentProviderName, readonly string[]> = {
  efi: ['efiClientId', 'efiClientSecret', 'efiPixKey'],
  stripe: ['stripeSecretKey', 'stripeWebhookSecret'],
  asaas: ['asaasToken', 'asaasWebhookToken'],
  mercadopago: ['mercadoPagoAccessToken', 'mercadoPagoWebhookSecret'],
};
export const PAYMENT_PROVIDER_NAMES = Object.keys(PAYMENT_CREDENTIALS) as PaymentProviderName[];

/** The owner's settings calls live once, in platform-settings.ts. */
export {
  listPlatformSettings,
  savePlatformSetting as putPlatformSetting,
  type PlatformSetting as SettingView,
} from './platform-settings';

export interface CertificateStatus {
  destination: 'certificadoEfi';
  installed: boolean;
  fileName?: string;
  size?: number;
  uploadedAt?: string;
}

/** GET /settings/cert-upload: whether the PIX certificate is installed (never its bytes). */
export const getCertificateStatus = (options: { signal?: AbortSignal } = {}): Promise<CertificateStatus[]> =>
  api().get<CertificateStatus[]>('/settings/cert-upload', options);

/** POST /settings/cert-upload?ref=certificadoEfi, multipart `file`: success answers mensagem 'Arquivo Anexado'. */
export const uploadCertificate = (file: File): Promise<{ mensagem: string }> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api().post<{ mensagem: string }>('/settings/cert-upload', form, { query: { ref: 'certificadoEfi' } });
};

/** GET /subscription/providers: what the checkout offers (decisions D168). */
export const listOfferedProviders = (options: { signal?: AbortSignal } = {}): Promise<PaymentProvidersView> =>
  api().get<PaymentProvidersView>('/subscription/providers', options);
