/**
 * The local cloud's own log lines (not the functions' logger): one JSON line per event, like the
 * functions write, tagged `source: 'local-cloud'`. `quiet` silences info lines; warnings and errors
 * always reach stderr, so a failing handler is never invisible.
 */
export interface LocalLog {
  info: (msg: string, fields?: Record<string, unknown>) => void;
  warn: (msg: string, fields?: Record<string, unknown>) => void;
  error: (msg: string, fields?: Record<string, unknown>) => void;
}

const line = (level: string, msg: string, fields: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ level, msg, time: new Date().toISOString(), source: 'local-cloud', ...fields })}\n`;

export const createLocalLog = (quiet = false): LocalLog => ({
  info: (msg, fields) => {
    if (!quiet) process.stdout.write(line('info', msg, fields));
  },
  warn: (msg, fields) => {
    process.stderr.write(line('warn', msg, fields));
  },
  error: (msg, fields) => {
    process.stderr.write(line('error', msg, fields));
  },
});

/** The parts of an unknown error worth a log line (the stack stays in logs, never in responses). */
export const describeError = (err: unknown): Record<string, unknown> =>
  err instanceof Error ? { errorName: err.name, errorMessage: err.message, stack: err.stack } : { error: String(err) };
