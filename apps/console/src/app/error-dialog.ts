import type { ErrorDescription } from '../api/errors';
import { toast } from './toast';

/** Where the list dialog of a 101009 reply is drawn: the signed-in shell's modal API. */
export interface ErrorDialogSink {
  open(description: ErrorDescription): void;
}

let sink: ErrorDialogSink | null = null;

/**
 * Shows a failure that lists several codes (101009, spec part 1 §8 "Handling"): a dialog with each
 * code's message and its targets, and a confirm button. Without a shell on screen the same text
 * goes to an error toast, one line per code.
 */
export function showErrorDialog(description: ErrorDescription): void {
  if (sink) {
    sink.open(description);
    return;
  }
  const lines = (description.details ?? []).map((entry) => `${entry.message}: ${entry.targets.join(', ')}`);
  toast.error([description.message, ...lines].join('\n'));
}

/** Makes `next` the place the dialog is drawn; returns the detach function. */
export function attachErrorDialogSink(next: ErrorDialogSink): () => void {
  sink = next;
  return () => {
    if (sink === next) sink = null;
  };
}
