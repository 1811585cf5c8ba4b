import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/**
 * fauxqs keeps S3 in memory; the local cloud persists a bucket to disk so a second `npm start` finds its
 * media again. A bucket's snapshot directory holds `index.json` (key -> file, ETag, content type, user
 * metadata) and `objects/<sha256 of key>` with the bytes. Snapshots are incremental (an object whose
 * ETag did not change is not downloaded again) and crash-safe (files and index are written to a temp
 * name and renamed; the index is written last, then unreferenced files are removed).
 */
interface SnapshotEntry {
  file: string;
  etag: string;
  contentType?: string;
  cacheControl?: string;
  contentDisposition?: string;
  metadata?: Record<string, string>;
}

interface SnapshotIndex {
  version: 1;
  objects: Record<string, SnapshotEntry>;
}

const INDEX = 'index.json';
const OBJECTS = 'objects';

const fileFor = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

const readIndex = async (dir: string): Promise<SnapshotIndex> => {
  try {
    const parsed = JSON.parse(await readFile(join(dir, INDEX), 'utf8')) as SnapshotIndex;
    return parsed.version === 1 && parsed.objects ? parsed : { version: 1, objects: {} };
  } catch {
    return { version: 1, objects: {} };
  }
};

const writeAtomically = async (path: string, data: string | Uint8Array): Promise<void> => {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
};

/** Last index written or restored per directory: what the next snapshot may skip. */
const known = new Map<string, SnapshotIndex>();

/** Writes the bucket's current objects to `dir`. Returns how many objects the snapshot holds. */
export const snapshotBucket = async (s3: S3Client, bucket: string, dir: string): Promise<number> => {
  await mkdir(join(dir, OBJECTS), { recursive: true });
  const previous = known.get(dir) ?? (await readIndex(dir));
  const next: SnapshotIndex = { version: 1, objects: {} };
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const item of page.Contents ?? []) {
      if (!item.Key) continue;
      const before = previous.objects[item.Key];
      if (before && before.etag === item.ETag) {
        next.objects[item.Key] = before;
        continue;
      }
      const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: item.Key }));
      const file = fileFor(item.Key);
      await writeAtomically(join(dir, OBJECTS, file), (await object.Body?.transformToByteArray()) ?? new Uint8Array());
      next.objects[item.Key] = {
        file,
        etag: object.ETag ?? item.ETag ?? '',
        ...(object.ContentType ? { contentType: object.ContentType } : {}),
        ...(object.CacheControl ? { cacheControl: object.CacheControl } : {}),
        ...(object.ContentDisposition ? { contentDisposition: object.ContentDisposition } : {}),
        ...(object.Metadata && Object.keys(object.Metadata).length > 0 ? { metadata: object.Metadata } : {}),
      };
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);

  await writeAtomically(join(dir, INDEX), JSON.stringify(next, null, 1));
  known.set(dir, next);
  const referenced = new Set(Object.values(next.objects).map((e) => e.file));
  for (const name of await readdir(join(dir, OBJECTS))) {
    if (!referenced.has(name)) await rm(join(dir, OBJECTS, name), { force: true });
  }
  return Object.keys(next.objects).length;
};

/** Puts every object of the snapshot in `dir` back into the bucket. Returns how many it restored. */
export const restoreBucket = async (s3: S3Client, bucket: string, dir: string): Promise<number> => {
  const index = await readIndex(dir);
  const restored: SnapshotIndex = { version: 1, objects: {} };
  for (const [key, entry] of Object.entries(index.objects)) {
    let body: Buffer;
    try {
      body = await readFile(join(dir, OBJECTS, entry.file));
    } catch {
      continue; // a file lost outside our control: skip the object rather than fail the start
    }
    const out = await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: entry.contentType,
        CacheControl: entry.cacheControl,
        ContentDisposition: entry.contentDisposition,
        Metadata: entry.metadata,
      }),
    );
    restored.objects[key] = { ...entry, etag: out.ETag ?? entry.etag };
  }
  known.set(dir, restored);
  return Object.keys(restored.objects).length;
};
