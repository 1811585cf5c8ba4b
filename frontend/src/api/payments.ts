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

export interface SettingView {
  key: string;
  value: string;
  masked?: true;
}

export interface CertificateStatus {
  destination: 'certificadoEfi';
  installed: boolean;
  fileName?: string;
  size?: number;
  uploadedAt?: string;
}

/** GET /settings: every platform key (secrets masked, '' when unset). */
export const listPlatformSettings = (options: { signal?: AbortSignal } = {}): Promise<SettingView[]> =>
  api().get<SettingView[]>('/settings', options);

/** PUT /settings/{key} {key, value}: answers the key with its value masked when secret. */
export const putPlatformSetting = (key: string, value: string): Promise<SettingView> =>
  api().put<SettingView>(`/settings/${encodeURIComponent(key)}`, { key, value });

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
