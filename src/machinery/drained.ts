// Waiting out a writer's backpressure without leaving listeners behind: a long-lived stream (a
// watch that a slow client keeps behind for hours) waits for 'drain' many times, and a 'close'
// listener added at each wait and never removed would pile up on it for the stream's whole life.
import type { EventEmitter } from 'node:events';

/** Resolves at the writer's next 'drain' or 'close', whichever comes first; both listeners go then. */
export function drainedOrClosed(writer: EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      writer.off('drain', done);
      writer.off('close', done);
      resolve();
    };
    writer.once('drain', done);
    writer.once('close', done);
  });
}
