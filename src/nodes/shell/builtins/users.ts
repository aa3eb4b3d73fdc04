// Names of users and groups, read from the container's /etc/passwd and /etc/group as libc does.
import type { CommandEnv } from '../context.js';

function lookup(env: CommandEnv, file: string, id: number): string | undefined {
  let text: string;
  try {
    text = env.fs.readFile(file).toString('utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 3 && Number(fields[2]) === id && fields[2] !== '') return fields[0];
  }
  return undefined;
}

export function userNameOrUndefined(env: CommandEnv, uid: number): string | undefined {
  return lookup(env, '/etc/passwd', uid);
}

export function groupNameOrUndefined(env: CommandEnv, gid: number): string | undefined {
  return lookup(env, '/etc/group', gid);
}

export function userName(env: CommandEnv, uid: number): string {
  return userNameOrUndefined(env, uid) ?? String(uid);
}

export function groupName(env: CommandEnv, gid: number): string {
  return groupNameOrUndefined(env, gid) ?? String(gid);
}
