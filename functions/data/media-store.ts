import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '../shared/config';

/**
 * The media bucket (message media, avatars, logos). Keys always start with the company
 * (`c/<companyId>/...`, docs/data-model.md §1.8), like the table's partition keys, and browsers read objects under MEDIA_BASE_URL
 * (`/media/<key>`, CloudFront or the local gateway). Created once per process; path-style locally, where
 * S3_ENDPOINT is the gateway's `/_s3` door to the emulator.
 */
let client: S3Client | undefined;

/** The process's one S3 client (every bucket: media, exports). */
export const s3 = (): S3Client => {
  if (!client) {
    const c = config();
    client = new S3Client({
      region: c.AWS_REGION,
      ...(c.S3_ENDPOINT
        ? {
            endpoint: c.S3_ENDPOINT,
            forcePathStyle: true,
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : {}),
    });
  }
  return client;
};

const bucket = (): string => {
  const name = config().MEDIA_BUCKET;
  if (!name) throw new Error('MEDIA_BUCKET is not configured');
  return name;
};

export const putMediaObject = async (key: string, bytes: Buffer, contentType: string): Promise<void> => {
  await s3().send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      Body: bytes,
      ContentType: contentType,
      // Keys are never reused (a new upload gets a new key), so browsers may cache them for good.
      CacheControl: 'public, max-age=31536000, immutable',
    }),
  );
};

/** An object's bytes (the WhatsApp worker sends media from the bucket). */
export const getMediaObject = async (key: string): Promise<Buffer> => {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
};

export const deleteMediaObject = async (key: string): Promise<void> => {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
};

/**
 * A time-limited GET URL of a stored object, for providers that fetch our media themselves (Meta's Graph
 * API takes attachments by URL, decisions D40). Default one hour.
 */
export const presignedMediaUrl = async (key: string, expiresInSeconds = 3600): Promise<string> => {
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  const { GetObjectCommand: Get } = await import('@aws-sdk/client-s3');
  return getSignedUrl(s3(), new Get({ Bucket: bucket(), Key: key }), { expiresIn: expiresInSeconds });
};

/**
 * A time-limited PUT URL for one object (message media uploaded by the browser straight to S3, decisions
 * D51): signed for this key, content type and exact length, so S3 refuses any other upload on it.
 */
export const presignedUploadUrl = async (
  key: string,
  contentType: string,
  contentLength: number,
  expiresInSeconds = 900,
): Promise<string> => {
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  return getSignedUrl(
    s3(),
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      ContentType: contentType,
      ContentLength: contentLength,
      CacheControl: 'public, max-age=31536000, immutable',
    }),
    { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-type', 'content-length']) },
  );
};

/** An object's size and stored type, or null when there is none under the key. */
export const headMediaObject = async (key: string): Promise<{ size: number; contentType: string } | null> => {
  const { HeadObjectCommand } = await import('@aws-sdk/client-s3');
  try {
    const out = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream' };
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as Error).name === 'NotFound' || (err as Error).name === 'NoSuchKey') return null;
    throw err;
  }
};

/** The first bytes of an object (its type is read from them, never from what the uploader claimed). */
export const readMediaStart = async (key: string, length = 64): Promise<Buffer> => {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${length - 1}` }));
  return Buffer.from(await out.Body!.transformToByteArray());
};

/** The URL browsers use for a stored key. */
export const mediaUrl = (key: string): string => `${config().MEDIA_BASE_URL.replace(/\/$/, '')}/${key}`;

/** Fault-injection tests swap the client. */
export const setMediaClientForTests = (replacement: S3Client | undefined): void => {
  client = replacement;
};
