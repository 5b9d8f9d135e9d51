import { sessionLabel, type EventSession } from '@ticketing/proto';
import { waitFor } from '@ticketing/testkit';
import { takeCspViolations } from '../../scripts/lib/browser.ts';
import { adminEvent, type startSystem } from '../../scripts/lib/system.ts';

export { startBrowserStack, type BrowserStack } from '../../scripts/lib/browser.ts';

// A page of any browser test that breaks the gateway's Content-Security-Policy fails that test.
afterEach(() => {
  expect(takeCspViolations()).toEqual([]);
});

const HOUR = 60 * 60 * 1000;

/**
 * The schedule of a congress of two days, for `adminEvent`: day 1's door is open now (it starts in an hour), day 2
 * starts tomorrow. Both are still to come, so its tickets are on sale.
 */
export function twoDays(now = Date.now()) {
  const at = (offset: number) => new Date(now + offset).toISOString();
  const sessions = [
    { startsAt: at(HOUR), endsAt: at(9 * HOUR), title: 'Dia 1' },
    { startsAt: at(25 * HOUR), endsAt: at(33 * HOUR), title: 'Dia 2' },
  ];
  return { date: sessions[0]!.startsAt, sessions };
}

/**
 * The event's sessions as the catalog lists them, each with its name at the door ('Dia 2 — 07/12'), once the
 * tickets service has heard of them too (its door refuses a session it does not know).
 */
export async function doorSessions(
  system: Awaited<ReturnType<typeof startSystem>>,
  eventId: string,
  token: string,
): Promise<(EventSession & { label: string })[]> {
  const sessions: EventSession[] = await waitFor(async () => {
    const { status, body } = await system.call('GET', `/api/events/${eventId}`);
    return status === 200 && body.sessions;
  });
  await waitFor(async () => {
    const counts = await system.call('GET', `/api/door/events/${eventId}/counts?sessionId=${sessions.at(-1)!.id}`, {
      token,
    });
    return counts.status === 200;
  });
  return sessions.map((session, position) => ({ ...session, label: sessionLabel(session, position) }));
}

/** A congress of two days (`twoDays`) created by the administrator, once the door knows its days. */
export async function congressOfTwoDays(system: Awaited<ReturnType<typeof startSystem>>) {
  const { eventId, adminToken } = await adminEvent(system, {
    title: 'Congresso de Farmácia em Dois Dias',
    maxAttendees: 5,
    ...twoDays(),
  });
  const [day1, day2] = await doorSessions(system, eventId, adminToken);
  return { eventId, adminToken, day1: day1!, day2: day2! };
}
