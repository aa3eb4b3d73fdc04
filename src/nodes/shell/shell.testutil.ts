// Runs commands of the built-in shell in tests, collecting what they write.
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { runCommand } from './index.js';
import { Vfs } from './vfs.js';
import type { UserInfo } from './context.js';

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
  out: Buffer;
}

export interface RunOptions {
  fs?: Vfs;
  stdin?: string | Buffer | Readable;
  env?: Record<string, string>;
  tty?: boolean;
  cwd?: string;
  signal?: AbortSignal;
  user?: UserInfo;
  now?: () => number;
}

/** A filesystem with the directories commands expect (/tmp, /etc, /bin). */
export function testFs(options: { budgetBytes?: number } = {}): Vfs {
  const fs = new Vfs({ budgetBytes: options.budgetBytes, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
  for (const d of ['/tmp', '/etc', '/bin', '/root', '/dev']) fs.mkdir(d);
  fs.mount('/dev/null', { kind: 'null', mode: 0o666, mtimeMs: fs.now(), uid: 0, gid: 0 }, false);
  fs.writeFile('/etc/passwd', 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n');
  fs.writeFile('/etc/group', 'root:x:0:\nusers:x:100:\nnogroup:x:65534:\n');
  return fs;
}

export async function run(argv: string[] | string, options: RunOptions = {}): Promise<RunResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  out.on('data', (d: Buffer) => outChunks.push(d));
  err.on('data', (d: Buffer) => errChunks.push(d));
  const stdin =
    options.stdin === undefined ? undefined : options.stdin instanceof Readable ? options.stdin : Readable.from([Buffer.from(options.stdin)]);
  const status = await runCommand(
    typeof argv === 'string' ? ['sh', '-c', argv] : argv,
    { stdin, stdout: out, stderr: options.tty ? out : err, tty: options.tty ?? false },
    {
      fs: options.fs ?? testFs(),
      env: options.env ?? { PATH: '/bin', HOME: '/root' },
      cwd: options.cwd,
      hostname: 'pod-1',
      signal: options.signal ?? new AbortController().signal,
      user: options.user,
      now: options.now ?? (() => Date.UTC(2026, 0, 2, 3, 4, 5)),
    },
  );
  out.end();
  err.end();
  await Promise.all([finished(out), finished(err)]);
  const outBuf = Buffer.concat(outChunks);
  return { status, stdout: outBuf.toString('utf8'), stderr: Buffer.concat(errChunks).toString('utf8'), out: outBuf };
}
