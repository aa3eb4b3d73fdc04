import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BODIES_PER_TURN, nextTurn, waitingForTurn } from './turns.js';

/** Resolves after the turn of the event loop that is running or queued now. */
const afterThisTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('turns', () => {
  it('hands over at most a few per turn of the event loop, in order, and the rest in later turns', async () => {
    const started: number[] = [];
    const total = BODIES_PER_TURN * 2 + 3;
    const all = Array.from({ length: total }, (_, i) => nextTurn().then(() => started.push(i)));
    assert.equal(started.length, 0, 'nothing starts in the callback that asked');
    assert.equal(waitingForTurn(), total);
    await afterThisTurn();
    assert.deepEqual(started, Array.from({ length: BODIES_PER_TURN }, (_, i) => i));
    await afterThisTurn();
    assert.equal(started.length, BODIES_PER_TURN * 2);
    await Promise.all(all);
    assert.deepEqual(started, Array.from({ length: total }, (_, i) => i));
    assert.equal(waitingForTurn(), 0);
  });
});
