import { getSettingFile, putSettingFile } from '../../data/settings-repository';
import { ValidationError } from '../../shared/errors';
import { decryptSecret, encryptSecret } from '../../shared/token-cipher';

/**
 * The PIX certificate (core spec §5 "Certificate upload", §7; decisions D169): `POST /settings/cert-upload
 * ?ref=certificadoEfi` with the .p12 as the multipart `file`. Stored sealed (AES-256-GCM, purpose
 * `platform-secret`) in the platform's file-setting item, never served back: the owner's GET shows only
 * whether one is installed, its name and when; the Efí adapter reads it in clear for its mTLS pfx.
 */
export const CERTIFICATE_DESTINATIONS = ['certificadoEfi'] as const;
export type CertificateDestination = (typeof CERTIFICATE_DESTINATIONS)[number];

/** A .p12 is a few KB; 50 KB leaves room for a long chain and refuses anything that is not one. */
export const MAX_CERTIFICATE_BYTES = 50 * 1024;

export interface CertificateUpload {
  filename: string;
  bytes: Buffer;
}

export interface CertificateStatus {
  destination: CertificateDestination;
  installed: boolean;
  fileName?: string;
  size?: number;
  uploadedAt?: string;
}

const refuse = (field: string, reason: string) => new ValidationError([{ field, reason }], reason);

export const uploadCertificate = async (
  ref: string | undefined,
  file: CertificateUpload | undefined,
  now = new Date(),
): Promise<{ mensagem: string }> => {
  if (!ref) throw refuse('query.ref', 'Escolha um destino!');
  if (!(CERTIFICATE_DESTINATIONS as readonly string[]).includes(ref)) throw refuse('query.ref', 'Escolha um destino!');
  if (!file || file.bytes.length === 0) throw refuse('body.file', 'Escolha um arquivo!');
  // The spec's rule is the extension; the bytes must also be DER (a PKCS#12 PFX is one ASN.1 SEQUENCE).
  if (!/\.p12$/i.test(file.filename) || file.bytes[0] !== 0x30)
    throw refuse('body.file', 'Use somente arquivos em formato p12!');
  if (file.bytes.length > MAX_CERTIFICATE_BYTES) throw refuse('body.file', 'O certificado deve ter até 50 KB');
  await putSettingFile({
    destination: ref,
    sealed: await encryptSecret('platform-secret', file.bytes.toString('base64')),
    fileName: file.filename.replace(/[^\w.\- ]/g, '_').slice(0, 120),
    size: file.bytes.length,
    uploadedAt: now.toISOString(),
  });
  return { mensagem: 'Arquivo Anexado' };
};

/** GET /settings/cert-upload — whether each destination has a certificate; never its bytes. */
export const certificateStatus = async (): Promise<CertificateStatus[]> =>
  Promise.all(
    CERTIFICATE_DESTINATIONS.map(async (destination) => {
      const stored = await getSettingFile(destination);
      return stored
        ? {
            destination,
            installed: true,
            fileName: stored.fileName,
            size: stored.size,
            uploadedAt: stored.uploadedAt,
          }
        : { destination, installed: false };
    }),
  );

/** The installed Efí certificate in clear (for the adapter's mTLS), or undefined. */
export const readEfiCertificate = async (): Promise<{ pfx: Buffer; uploadedAt: string } | undefined> => {
  const stored = await getSettingFile('certificadoEfi');
  if (!stored) return undefined;
  return {
    pfx: Buffer.from(await decryptSecret('platform-secret', stored.sealed), 'base64'),
    uploadedAt: stored.uploadedAt,
  };
};
