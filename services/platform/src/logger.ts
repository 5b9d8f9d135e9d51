import { pino, type DestinationStream, type Logger } from 'pino';
import { trace } from './context.ts';

export type { Logger };

/** JSON logs; every line written inside a request or a consumed event carries its request id. */
export function createLogger(name: string, level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const context = trace.current();
        return context ? { requestId: context.requestId } : {};
      },
    },
    destination,
  );
}
