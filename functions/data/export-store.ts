import { Writable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { config } from '../shared/config';
import { s3 } from './media-store';

/**
 * The exports bucket (decisions D127): spreadsheets the export job streams up in parts and browsers fetch
 * through short presigned GETs — never through CloudFront. Keys start with the company (`c/<c>/exports/...`).
 */
const bucket = (): string => {
  const name = config().EXPORTS_BUCKET;
  if (!name) throw new Error('EXPORTS_BUCKET is not configured');
  return name;
};

/** S3's smallest part (all but the last); the writer holds at most one part in memory. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * A file being written: a Node writable (exceljs' streaming writer and the csv writer write into it) that
 * uploads every 5 MB as a part of one multipart upload. Nothing is visible under the key until
 * `complete()`; `abort()` drops the parts. Memory stays at one part whatever the file's size.
 */
export class ExportUpload extends Writable {
  private uploadId: string | undefined;
  private readonly parts: { ETag: string; PartNumber: number }[] = [];
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  /** Bytes written so far. */
  size = 0;

  constructor(
    private readonly key: string,
    private readonly contentType: string,
    private readonly fileName: string,
  ) {
    super();
  }

  private async ensureStarted(): Promise<string> {
    if (!this.uploadId) {
      const out = await s3().send(
        new CreateMultipartUploadCommand({
          Bucket: bucket(),
          Key: this.key,
          ContentType: this.contentType,
          ContentDisposition: `attachment; filename="${this.fileName}"`,
        }),
      );
      this.uploadId = out.UploadId!;
    }
    return this.uploadId;
  }

  private async uploadPart(): Promise<void> {
    const body = Buffer.concat(this.buffered);
    this.buffered = [];
    this.bufferedBytes = 0;
    const uploadId = await this.ensureStarted();
    const PartNumber = this.parts.length + 1;
    const out = await s3().send(
      new UploadPartCommand({ Bucket: bucket(), Key: this.key, UploadId: uploadId, PartNumber, Body: body }),
    );
    this.parts.push({ ETag: out.ETag!, PartNumber });
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.buffered.push(bytes);
    this.bufferedBytes += bytes.length;
    this.size += bytes.length;
    if (this.bufferedBytes < PART_BYTES) {
      callback();
      return;
    }
    this.uploadPart().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    // The last part may be small; an empty file still gets one (empty) part.
    if (this.bufferedBytes > 0 || this.parts.length === 0) this.uploadPart().then(() => callback(), callback);
    else callback();
  }

  /** Makes the file visible under its key (replacing any earlier one: one file per export). */
  async complete(): Promise<void> {
    const uploadId = await this.ensureStarted();
    await s3().send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket(),
        Key: this.key,
        UploadId: uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** Drops the parts uploaded so far (best effort; the bucket's lifecycle rule aborts leftovers after a day). */
  async abort(): Promise<void> {
    if (!this.uploadId) return;
    await s3()
      .send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: this.key, UploadId: this.uploadId }))
      .catch(() => undefined);
  }
}

/** A time-limited GET of an export, downloaded under its file name. */
export const presignedExportUrl = async (key: string, fileName: string, expiresInSeconds: number): Promise<string> => {
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: bucket(),
      Key: key,
      ResponseContentDisposition: `attachment; filename="${fileName}"`,
    }),
    { expiresIn: expiresInSeconds },
  );
};

/** An export's bytes (tests and the benchmark read files back). */
export const getExportObject = async (key: string): Promise<Buffer> => {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
};

/** How many objects lie under a prefix (tests: one finished file per export). */
export const countExportObjects = async (prefix: string): Promise<number> => {
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const out = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix }));
  return out.KeyCount ?? (out.Contents ?? []).length;
};
