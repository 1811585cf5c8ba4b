/**
 * S3 buckets the functions use, described once for CDK and the local cloud. The web bucket (the built
 * frontend) is CDK-only: locally the gateway serves frontend/dist directly.
 */
export const BUCKETS = [
  {
    name: 'media',
    description: 'Message media, avatars, logos; served to browsers under /media',
  },
] as const;

export type BucketName = (typeof BUCKETS)[number]['name'];
