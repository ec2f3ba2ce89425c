import type { ErrorCode } from '@rampart/contract';
import { AppError } from './app-error.js';

/** Collects per-item failures of a batch into one 101009 reply: each code with the targets that met it. */
export class BatchFailures {
  private readonly byCode = new Map<ErrorCode, string[]>();

  add(code: ErrorCode, target: string) {
    const list = this.byCode.get(code) ?? [];
    if (!list.includes(target)) list.push(target);
    this.byCode.set(code, list);
  }

  throwIfAny() {
    if (this.byCode.size === 0) return;
    throw new AppError(101009, { errors: [...this.byCode].map(([code, targets]) => ({ code, targets })) });
  }
}
