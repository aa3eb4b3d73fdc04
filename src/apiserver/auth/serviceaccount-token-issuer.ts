// What the API server needs to issue service account tokens (TokenRequest) — kube-apiserver's
// --service-account-issuer, --service-account-signing-key-file, --api-audiences,
// --service-account-max-token-expiration, --service-account-extend-token-expiration.
import type { SigningKey } from '../../machinery/jwt/keys.js';

export interface ServiceAccountTokenIssuer {
  /** The first --service-account-issuer: the `iss` of the tokens issued. */
  issuer: string;
  signingKey: SigningKey;
  /** Audiences of a TokenRequest that names none (--api-audiences, default the issuer). */
  apiAudiences: readonly string[];
  /** Longer requests are shortened to this, with a warning (0 or absent: no limit). */
  maxExpirationSeconds?: number;
  /** Pod-bound tokens asked for 3607 s (the projected volume's) are valid a year and warn after 3607 s (default true). */
  extendExpiration?: boolean;
}
