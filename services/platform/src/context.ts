import { AsyncLocalStorage } from 'node:async_hooks';

/** What travels with a request or a consumed event: it lands in logs and in the events it causes. */
export interface TraceContext {
  requestId: string;
  causationId: string | null;
}

const storage = new AsyncLocalStorage<TraceContext>();

export const trace = {
  run: <T>(context: TraceContext, fn: () => T): T => storage.run(context, fn),
  current: (): TraceContext | undefined => storage.getStore(),
};
