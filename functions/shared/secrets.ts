import { hkdfSync } from 'node:crypto';
import { config } from './config';

/**
 * The application secret, resolved once per process: from APP_SECRET locally, or from Secrets Manager
 * in AWS (the SDK client is loaded only there, so local bundles and tests never pay for it).
 * Purpose-specific keys are derived with HKDF, so one secret signs tokens and cursors without reuse.
 */
let secretPromise: Promise<Buffer> | undefined;

/** The process's one Secrets Manager client, loaded on first use (only in AWS). */
let secretsManager: Promise<(arn: string, variable: string) => Promise<string>> | undefined;

const secretString = async (arn: string, variable: string): Promise<string> => {
  secretsManager ??= import('@aws-sdk/client-secrets-manager').then(
    ({ SecretsManagerClient, GetSecretValueCommand }) => {
      const client = new SecretsManagerClient({});
      return async (secretId: string, name: string) => {
        const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
        if (!out.SecretString) throw new Error(`${name} points at a secret without a string value`);
        return out.SecretString;
      };
    },
  );
  return (await secretsManager)(arn, variable);
};

const loadSecret = async (): Promise<Buffer> => {
  const { APP_SECRET, APP_SECRET_ARN } = config();
  if (APP_SECRET) return Buffer.from(APP_SECRET, 'utf8');
  return Buffer.from(await secretString(APP_SECRET_ARN!, 'APP_SECRET_ARN'), 'utf8');
};

let metaSecretPromise: Promise<string | null> | undefined;

/**
 * The Meta app secret (decisions D40), resolved once per process like the application secret: from
 * META_APP_SECRET, or from Secrets Manager (META_APP_SECRET_ARN). Null when neither is configured (the
 * Meta routes then answer 503 ERR_META_NOT_CONFIGURED). Never logged.
 */
export const metaAppSecret = (): Promise<string | null> => {
  metaSecretPromise ??= (async () => {
    const { META_APP_SECRET, META_APP_SECRET_ARN } = config();
    if (META_APP_SECRET) return META_APP_SECRET;
    if (!META_APP_SECRET_ARN) return null;
    return secretString(META_APP_SECRET_ARN, 'META_APP_SECRET_ARN');
  })();
  metaSecretPromise.catch(() => (metaSecretPromise = undefined));
  return metaSecretPromise;
};

export type KeyPurpose =
  | 'access-token'
  | 'cursor'
  | 'refresh-token'
  | 'reset-code'
  | 'webhook'
  | 'meta-token'
  | 'integration-secret'
  | 'platform-secret';

const derived = new Map<KeyPurpose, Promise<Uint8Array>>();

export const secretKey = (purpose: KeyPurpose): Promise<Uint8Array> => {
  let key = derived.get(purpose);
  if (!key) {
    secretPromise ??= loadSecret();
    key = secretPromise.then(
      (secret) => new Uint8Array(hkdfSync('sha256', secret, 'zapdesk', `zapdesk:${purpose}`, 32)),
    );
    derived.set(purpose, key);
  }
  return key;
};

/** Tests change APP_SECRET between runs; this forgets the resolved secret and its derived keys. */
export const resetSecretsForTests = (): void => {
  secretPromise = undefined;
  metaSecretPromise = undefined;
  derived.clear();
};
