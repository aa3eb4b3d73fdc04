// `kubelite apiserver`'s service account token flags (kube-apiserver's names) turned into the
// server's options; without a signing key, one is created in <data-dir>/pki/sa.key (0600, with
// sa.pub beside it) on first start and reused afterwards.
import { join } from 'node:path';
import type { ApiServerOptions } from '../apiserver/server.js';
import { ensureSigningKey, readSigningKey, readVerificationKeys } from '../machinery/jwt/keys.js';

export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface ServiceAccountFlags {
  serviceAccountIssuer: string[];
  serviceAccountSigningKeyFile?: string;
  serviceAccountKeyFile: string[];
  apiAudiences?: string[];
  /** Milliseconds. */
  serviceAccountMaxTokenExpiration?: number;
  serviceAccountExtendTokenExpiration: boolean;
}

/** Throws an Error with a one-line message for a bad key file or flag. */
export function serviceAccountTokenOptions(flags: ServiceAccountFlags, dataDir: string): NonNullable<ApiServerOptions['serviceAccountTokens']> {
  const issuers = flags.serviceAccountIssuer.length > 0 ? flags.serviceAccountIssuer : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const signingKey = flagged('--service-account-signing-key-file', () =>
    flags.serviceAccountSigningKeyFile !== undefined ? readSigningKey(flags.serviceAccountSigningKeyFile) : ensureSigningKey(join(dataDir, 'pki', 'sa.key'), join(dataDir, 'pki', 'sa.pub')),
  );
  const verificationKeys = flagged('--service-account-key-file', () => flags.serviceAccountKeyFile.flatMap((f) => readVerificationKeys(f)));
  let maxExpirationSeconds: number | undefined;
  if (flags.serviceAccountMaxTokenExpiration !== undefined) {
    maxExpirationSeconds = Math.floor(flags.serviceAccountMaxTokenExpiration / 1000);
    // kube-apiserver: the maximum may not be shorter than an hour.
    if (maxExpirationSeconds < 3600) throw new Error('--service-account-max-token-expiration: the service-account-max-token-expiration must be greater than or equal to 1h');
  }
  return {
    issuer: issuers[0]!,
    acceptedIssuers: issuers,
    signingKey,
    verificationKeys,
    apiAudiences: flags.apiAudiences && flags.apiAudiences.length > 0 ? flags.apiAudiences : issuers,
    maxExpirationSeconds,
    extendExpiration: flags.serviceAccountExtendTokenExpiration,
  };
}

/** Runs `read`, naming the flag in the message of what it throws. */
function flagged<T>(flag: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new Error(`${flag}: ${(err as Error).message}`);
  }
}
