// Terminal sizes as the client sends them on the resize stream: a sequence of JSON objects
// {"Width":w,"Height":h} (client-go's TerminalSize has no JSON tags; Go's decoder matches the
// names without regard to case), possibly split across or packed into messages.

export interface TerminalSize {
  width: number;
  height: number;
}

/** The resize stream carries small objects; a client that sends more than this without one is ignored. */
const MAX_PENDING = 64 * 1024;

export class TerminalSizeDecoder {
  private pending = '';

  push(data: Buffer): TerminalSize[] {
    this.pending += data.toString('utf8');
    const sizes: TerminalSize[] = [];
    let depth = 0;
    let start = -1;
    let consumed = 0;
    for (let i = 0; i < this.pending.length; i++) {
      const c = this.pending[i];
      if (c === '{') {
        if (depth++ === 0) start = i;
      } else if (c === '}' && depth > 0 && --depth === 0) {
        const size = parseSize(this.pending.slice(start, i + 1));
        if (size) sizes.push(size);
        consumed = i + 1;
      }
    }
    this.pending = this.pending.slice(consumed);
    if (this.pending.length > MAX_PENDING) this.pending = '';
    return sizes;
  }
}

function parseSize(text: string): TerminalSize | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const field = (name: string) => Object.entries(value).find(([k]) => k.toLowerCase() === name)?.[1];
    const width = field('width');
    const height = field('height');
    if (typeof width !== 'number' || typeof height !== 'number') return null;
    return { width, height };
  } catch {
    return null;
  }
}
