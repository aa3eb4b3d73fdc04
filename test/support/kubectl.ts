// Runs the real kubectl against a test cluster. The machine's /usr/bin/kubectl dispatches to the
// kubectl matching the server's minor version; `version` pins one (kubectl.1.27 ... kubectl.1.33).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

function binary(version?: string): string {
  const dispatcher = realpathSync('/usr/bin/kubectl');
  if (!version) return dispatcher;
  const pinned = join(dirname(dispatcher), `kubectl.${version}`);
  if (!existsSync(pinned)) throw new Error(`kubectl ${version} is not installed (${pinned})`);
  return pinned;
}

export function kubectl(kubeconfig: string, args: string[], opts: { version?: string; input?: string; timeoutMs?: number } = {}): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(binary(opts.version), args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: process.env.HOME ?? '/tmp' }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}

/** kubectl that must succeed: returns stdout, or throws with its stderr. */
export async function kubectlOk(kubeconfig: string, args: string[], opts: { version?: string; input?: string } = {}): Promise<string> {
  const r = await kubectl(kubeconfig, args, opts);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A long-running kubectl (get -w, proxy) whose output is collected until it is stopped. */
export function kubectlStream(kubeconfig: string, args: string[], opts: { version?: string } = {}): { child: ChildProcess; output: () => string; waitFor: (re: RegExp, timeoutMs?: number) => Promise<string> } {
  const child = spawn(binary(opts.version), args, { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return {
    child,
    output: () => out,
    waitFor: (re, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re} in kubectl output:\n${out}`)), timeoutMs);
        const check = () => {
          const m = re.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          } else waiters.push(check);
        };
        check();
      }),
  };
}
