/**
 * A bus participant that dies at the worst moment, run as its own process so the death is real (SIGKILL):
 * `consumer` dies after its handler committed but before the transport committed the offset;
 * `relay` dies after the transport took half a batch but before the outbox rows were marked published.
 */
import type { Transport } from '../../src/bus/index.ts';
import { openFixture, type FixtureSettings } from './fixture.ts';

const { role, settings, group, killAfter } = JSON.parse(process.argv[2]!) as {
  role: 'consumer' | 'relay';
  settings: FixtureSettings;
  group: string;
  killAfter: number;
};
const fixture = await openFixture(settings);
const real = fixture.transport('doomed');
const die = () => process.kill(process.pid, 'SIGKILL');

if (role === 'consumer') {
  let handled = 0;
  const doomed: Transport = {
    ...real,
    subscribe: (name, topics, handler) =>
      real.subscribe(name, topics, async (delivery) => {
        await handler(delivery);
        if (++handled === killAfter) die();
      }),
  };
  await fixture.consume(doomed, group, 'doomed');
} else {
  const doomed: Transport = {
    ...real,
    async publish(messages) {
      await real.publish(messages.slice(0, Math.ceil(messages.length / 2)));
      die();
    },
  };
  await fixture.relay(doomed);
}
