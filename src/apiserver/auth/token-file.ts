// Static bearer tokens from a CSV file (kube-apiserver's --token-auth-file): one line per token,
// `token,user,uid[,"group1,group2"]`, read once at start. A bearer token not in the file is refused
// (401) unless another authenticator accepts it.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { bearerToken } from './chain.js';
import { authError } from './errors.js';
import type { Authenticator, UserInfo } from './types.js';

/** Parses the file's text; throws an Error naming the line for a malformed one. */
export function parseTokenFile(text: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const record = parseCsvLine(line, index + 1);
    if (record.length < 3) throw new Error(`token file line ${index + 1}: need at least token,user,uid (got ${record.length} columns)`);
    const [token, name, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '' || name === '') throw new Error(`token file line ${index + 1}: the token and the user name must not be empty`);
    if (tokens.has(token)) throw new Error(`token file line ${index + 1}: duplicate token`);
    const groupList = groups === undefined ? [] : groups.split(',').map((g) => g.trim()).filter((g) => g !== '');
    tokens.set(token, { name, uid, groups: groupList });
  });
  return tokens;
}

/** One CSV record (RFC 4180 quoting, as Go's encoding/csv reads it). */
function parseCsvLine(line: string, lineNumber: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`token file line ${lineNumber}: unterminated quoted field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i++];
      }
      if (i < line.length && line[i] !== ',') throw new Error(`token file line ${lineNumber}: extraneous text after a quoted field`);
    } else {
      const end = line.indexOf(',', i);
      field = end === -1 ? line.slice(i) : line.slice(i, end);
      i = end === -1 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

export class TokenFileAuthenticator implements Authenticator {
  readonly name = 'token-file';

  constructor(private readonly tokens: Map<string, UserInfo>) {}

  static fromFile(path: string): TokenFileAuthenticator {
    return new TokenFileAuthenticator(parseTokenFile(readFileSync(path, 'utf8')));
  }

  authenticate(req: IncomingMessage): UserInfo | undefined {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const user = this.tokens.get(token);
    if (user === undefined) throw authError.unauthorized();
    return user;
  }
}
