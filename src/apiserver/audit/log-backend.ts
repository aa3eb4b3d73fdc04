// The audit log backend (kube-apiserver's --audit-log-path, blocking mode): one JSON event per
// line, written before the request goes on; `-` is standard output. With --audit-log-maxsize (MiB)
// the file is rotated as kube-apiserver's lumberjack rotates it (`<name>-<time><ext>` beside it),
// keeping --audit-log-maxbackup old files (0: all) no older than --audit-log-maxage days (0: any).
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export interface AuditLogOptions {
  path: string;
  maxSizeMiB?: number;
  maxBackups?: number;
  maxAgeDays?: number;
}

export class AuditLogBackend {
  private fd: number;
  private size = 0;

  constructor(private readonly opts: AuditLogOptions) {
    if (opts.path === '-') {
      this.fd = 1;
      return;
    }
    mkdirSync(dirname(opts.path), { recursive: true });
    this.fd = openSync(opts.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  write(event: object): void {
    const line = Buffer.from(`${JSON.stringify(event)}\n`);
    const max = (this.opts.maxSizeMiB ?? 0) * 1024 * 1024;
    if (this.fd !== 1 && max > 0 && this.size + line.length > max && this.size > 0) this.rotate();
    writeSync(this.fd, line);
    this.size += line.length;
  }

  private rotate(): void {
    closeSync(this.fd);
    const ext = extname(this.opts.path);
    const stem = this.opts.path.slice(0, this.opts.path.length - ext.length);
    const stamp = new Date().toISOString().replace(/:/g, '-').replace(/Z$/, '');
    renameSync(this.opts.path, `${stem}-${stamp}${ext}`);
    this.fd = openSync(this.opts.path, 'a', 0o600);
    this.size = 0;
    this.prune(basename(stem), ext);
  }

  /** Removes the backups beyond --audit-log-maxbackup or older than --audit-log-maxage. */
  private prune(stem: string, ext: string): void {
    const dir = dirname(this.opts.path);
    const backups = readdirSync(dir)
      .filter((f) => f.startsWith(`${stem}-`) && f.endsWith(ext) && f !== basename(this.opts.path))
      .sort()
      .reverse();
    const maxBackups = this.opts.maxBackups ?? 0;
    const cutoff = (this.opts.maxAgeDays ?? 0) > 0 ? Date.now() - this.opts.maxAgeDays! * 86_400_000 : -Infinity;
    backups.forEach((f, i) => {
      const path = join(dir, f);
      if ((maxBackups > 0 && i >= maxBackups) || statSync(path).mtimeMs < cutoff) unlinkSync(path);
    });
  }

  close(): void {
    if (this.fd !== 1) closeSync(this.fd);
  }
}
