import { pino, type DestinationStream, type Logger } from 'pino';
import { trace } from './context.ts';
import { activeTraceIds } from './tracing.ts';

export type { Logger };

/**
 * JSON logs; every line written inside a request or a consumed event carries its request id, and inside a span its
 * trace and span ids.
 */
export function createLogger(name: string, level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const context = trace.current();
        const ids = activeTraceIds();
        if (!context) return ids ?? {};
        return ids ? { requestId: context.requestId, ...ids } : { requestId: context.requestId };
      },
    },
    destination,
  );
}
