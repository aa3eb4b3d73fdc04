// Client certificate authentication (kube-apiserver's --client-ca-file): the TLS layer asks every
// client for a certificate without requiring one and verifies what it gets against the client CA;
// here a verified certificate becomes the user CN in the groups O. A certificate that does not
// verify (another CA, expired, not yet valid) is refused with 401 — as Kubernetes does, the TLS
// handshake itself never fails over a client certificate. No certificate: not this authenticator's
// business (tokens or anonymous follow).
import type { IncomingMessage } from 'node:http';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { authError } from './errors.js';
import type { Authenticator, UserInfo } from './types.js';

/** What a connection's certificate says: a user, a refusal, or nothing (no certificate, or no CN). */
type Verdict = UserInfo | 'refused' | undefined;

/** The TLS socket under a request: HTTP/1's socket, or the HTTP/2 session's (one per connection). */
function tlsSocketOf(req: IncomingMessage): TLSSocket | undefined {
  const stream = (req as unknown as { stream?: { session?: { socket?: unknown } } }).stream;
  const socket = (stream?.session?.socket ?? req.socket) as TLSSocket | undefined;
  return socket !== undefined && typeof socket.getPeerCertificate === 'function' ? socket : undefined;
}

function values(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** Kubernetes' CommonNameUserConversion: CN is the user, every O a group; no CN → no user. */
export function userFromCertificate(cert: PeerCertificate): UserInfo | undefined {
  const cn = values(cert.subject?.CN)[0];
  if (cn === undefined || cn === '') return undefined;
  return { name: cn, groups: values(cert.subject?.O) };
}

export class X509Authenticator implements Authenticator {
  readonly name = 'x509';
  /**
   * The verdict per connection: a certificate is verified once, at the handshake, so the
   * hundreds of requests a keep-alive connection carries do not parse it again. Keyed by the
   * socket (HTTP/1) or the session's socket proxy (HTTP/2, stable for the session).
   */
  private readonly verdicts = new WeakMap<object, Verdict>();

  authenticate(req: IncomingMessage): UserInfo | undefined {
    const socket = tlsSocketOf(req);
    if (socket === undefined) return undefined;
    let verdict = this.verdicts.get(socket);
    if (verdict === undefined && !this.verdicts.has(socket)) {
      verdict = this.verdictOf(socket);
      this.verdicts.set(socket, verdict);
    }
    if (verdict === 'refused') throw authError.unauthorized();
    return verdict;
  }

  private verdictOf(socket: TLSSocket): Verdict {
    const cert = socket.getPeerCertificate();
    // An empty object when the client sent none.
    if (cert === null || cert === undefined || Object.keys(cert).length === 0) return undefined;
    // `authorized` is OpenSSL's verification of the chain against the client CA, validity dates
    // included; a server without a client CA does not ask for certificates at all.
    if (!socket.authorized) return 'refused';
    return userFromCertificate(cert);
  }
}
