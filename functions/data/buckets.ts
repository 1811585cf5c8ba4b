/**
 * S3 buckets the functions use, described once for CDK and the local cloud. The web bucket (the built
 * frontend) is CDK-only: locally the gateway serves frontend/dist directly.
 */
export interface BucketDefinition {
  name: string;
  description: string;
  /** Browsers read its objects through CloudFront (`/media/*`) and PUT uploads to presigned URLs. */
  servedToBrowsers: boolean;
  /** Objects expire this many days after they were written (a lifecycle rule); none when absent. */
  expireAfterDays?: number;
}

export const BUCKETS = [
  {
    name: 'media',
    description: 'Message media, avatars, logos; served to browsers under /media',
    servedToBrowsers: true,
  },
  {
    // Decisions D127: spreadsheets written by the export job, fetched only through short presigned links.
    name: 'exports',
    description: 'Exported spreadsheets (decisions D127); read only through presigned links, gone after a day',
    servedToBrowsers: false,
    expireAfterDays: 1,
  },
] as const satisfies readonly BucketDefinition[];

export type BucketName = (typeof BUCKETS)[number]['name'];
