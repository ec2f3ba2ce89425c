import { type Localized, TOASTS, type ToastKey } from '@rampart/contract';
import { currentLocale, i18n } from '../i18n/i18n';

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

/** Where toasts are drawn: antd's message API of the mounted console frame. */
export interface ToastSink {
  open(kind: ToastKind, text: string): void;
}

let sink: ToastSink | null = null;
/**
 * Toasts raised while no console frame is mounted (a route loader that redirects before the first
 * render, e.g. verifyMail with a spent token) wait here and are shown once a frame attaches.
 */
const waiting: [ToastKind, string][] = [];
let onWaiting: (() => void) | null = null;

function show(kind: ToastKind, text: string): void {
  if (sink) {
    sink.open(kind, text);
    return;
  }
  waiting.push([kind, text]);
  onWaiting?.();
}

/**
 * The one way to raise a toast, from React code and from plain functions (the session layer) alike.
 * Texts of the spec's toasts come from the contract: `toast.success(toastText('loginSuccess'))`.
 */
export const toast = {
  success: (text: string) => show('success', text),
  error: (text: string) => show('error', text),
  info: (text: string) => show('info', text),
  warning: (text: string) => show('warning', text),
};

/** The spec's toast text (contract TOASTS) in the interface language. */
export function toastText(key: ToastKey): string {
  return localized(TOASTS[key]);
}

/**
 * The spec's generic "created" toast (part 2 §8: "generic translated create ... messages"). The
 * contract's TOASTS has no entry for it yet, so its text lives in the console's resources.
 */
export function createdText(): string {
  return i18n.t('toasts:created');
}

export function localized(text: Localized): string {
  return text[currentLocale()];
}

/** Makes `next` the place toasts are drawn and shows the waiting ones; returns the detach function. */
export function attachToastSink(next: ToastSink): () => void {
  sink = next;
  for (const [kind, text] of waiting.splice(0)) next.open(kind, text);
  return () => {
    if (sink === next) sink = null;
  };
}

/**
 * Calls `listener` when a toast waits for a sink, at once if one already waits: the console frame
 * loads its sink (antd's message) only then. Returns the detach function.
 */
export function whenToastWaits(listener: () => void): () => void {
  onWaiting = listener;
  if (waiting.length > 0) listener();
  return () => {
    if (onWaiting === listener) onWaiting = null;
  };
}

/** Tests: no sink, nothing waiting. */
export function resetToastsForTests(): void {
  sink = null;
  waiting.length = 0;
}
