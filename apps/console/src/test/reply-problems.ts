/**
 * Replies of the fake API (fake-api.ts) that did not match their route's schema, as a handler
 * answered them: `setup.ts` fails the test with them after it ran. A module of its own, without
 * imports, so the setup file loads nothing a test may mock.
 */
const replyProblems: string[] = [];

export function recordReplyProblem(problem: string): void {
  replyProblems.push(problem);
}

/** The problems recorded since the last call, emptied. */
export function takeReplyProblems(): string[] {
  return replyProblems.splice(0);
}
