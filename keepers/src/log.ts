/** Structured JSON logs (pino). Job code logs through a child carrying `job` and the idempotency `key`. */
import { pino, type Logger, type DestinationStream } from "pino";

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
