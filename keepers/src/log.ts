/** Structured JSON logs (pino). Job code logs through a child carrying `job` and the idempotency `key`. */
import { destination, pino, type Logger, type DestinationStream } from "pino";

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name: "chx-keeper",
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * The keeper process's stdout as a synchronous pino destination: a line logged right before `process.exit` (the
 * "keeper stopped" a supervisor waits for, the last error) is written, not left in an asynchronous buffer that the
 * exit may cut off. A full pipe is retried (EAGAIN), so a slow log reader slows the keeper, never drops a line.
 */
export function stdoutDestination(): DestinationStream {
  return destination({ dest: 1, sync: true });
}
