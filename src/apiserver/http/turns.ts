// Request bodies are handed to their handlers in turns of the event loop, a few per turn, so that
// the work of new requests does not starve the completions of earlier ones.
//
// Node runs every I/O callback that is ready in one go (the poll phase). Under load that includes
// dozens of complete request bodies, and a handler that starts at once runs a create's whole
// pipeline (~200 µs) before the next callback: the storage's "committed" notifications, which
// answer the requests already written, waited behind ~2.5 ms of new work. Their clients were
// waiting longer for nothing, sent their next request later, and between commits the process ran
// out of work (it sat idle ~11% of the time with 32 clients).
//
// Here a finished body waits for a turn: at most BODIES_PER_TURN bodies are handed over per turn
// of the loop (a setImmediate, which runs after the poll phase), and the rest wait for the next
// turn, so the loop polls for I/O again every BODIES_PER_TURN requests. Measured on the API server
// bench (32 clients creating pods, lmdb, 2 cores): handing bodies over in the poll phase as
// before, 3,520–3,790 creates/s; a turn later without a cap, 3,890–4,330; at most 8 per turn,
// 4,170–4,380, with the commit-to-response time halved (p50 3.3 → 1.8 ms). 2 and 4 per turn were
// slower than no cap (each turn also commits what the one before queued: batches got small); 12
// and 16 were no better than 8.
export const BODIES_PER_TURN = 8;

const waiting: Array<() => void> = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(runTurn);
}

function runTurn(): void {
  scheduled = false;
  const n = Math.min(BODIES_PER_TURN, waiting.length);
  for (let i = 0; i < n; i++) waiting.shift()!();
  if (waiting.length > 0) schedule();
}

/** Resolves in a later turn of the event loop, in order, at most BODIES_PER_TURN per turn. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/** Bodies that are waiting for their turn (for tests). */
export function waitingForTurn(): number {
  return waiting.length;
}
