import { config } from './config';

/**
 * Structured JSON logs, one line per event, written at the edges (one access line per request, one line
 * per job batch, one line per unexpected error). Never pass bodies, headers, tokens or secrets.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const write = (level: Level, msg: string, fields: Record<string, unknown> = {}): void => {
  if (order[level] < order[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
};

export const logger = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};

/** The parts of an unknown error that are safe and useful in a log line. */
export const errorFields = (err: unknown): Record<string, unknown> =>
  err instanceof Error ? { errorName: err.name, errorMessage: err.message, stack: err.stack } : { error: String(err) };
