/**
 * Structured logging: one JSON object per line on stdout, `{time, level, event, ...fields}`.
 * Events are dotted names (`snapshot.applied`, `nginx.restarted`); fields never hold secrets (the
 * node secret, the join token, private keys).
 */

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogEntry {
  time: string;
  level: LogLevel;
  event: string;
  [field: string]: unknown;
}

export type Logger = (level: LogLevel, event: string, fields?: Record<string, unknown>) => void;

/** The text of an error for a log line or a status report (its message, never its stack). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

export function jsonLineLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  return (level, event, fields = {}) => {
    const entry: LogEntry = { time: new Date().toISOString(), level, event, ...fields };
    write(`${JSON.stringify(entry)}\n`);
  };
}
