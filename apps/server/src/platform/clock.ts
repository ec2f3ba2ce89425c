/** Milliseconds since the epoch. Services take one so that tests can move time. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
