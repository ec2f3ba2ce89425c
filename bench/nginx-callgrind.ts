import { spawn } from 'node:child_process';

/**
 * One nginx process (its configuration must say `master_process off; daemon off;`) under
 * `valgrind --tool=callgrind`, writing to `out` (each dump names its functions in full, so
 * callgrind_annotate reads the measured one alone). For bench/edge/callgrind.ts and
 * bench/waf/callgrind.ts.
 */
export function nginxUnderCallgrind(prefix: string, conf: string, errorLog: string, out: string) {
  return spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--compress-strings=no',
      `--callgrind-out-file=${out}`,
      'nginx',
      '-p',
      prefix,
      '-c',
      conf,
      '-e',
      errorLog,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}
