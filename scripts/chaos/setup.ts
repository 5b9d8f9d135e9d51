import { randomBytes } from 'node:crypto';
import { makeCpf, waitFor } from '@ticketing/testkit';
import type { Stack } from '../lib/stack.ts';
import type { Client } from './client.ts';
import type { ChaosPlan } from './plan.ts';

export interface Person {
  name: string;
  email: string;
  password: string;
  cpf: string;
  token: string;
}

/** What the load works with: the events on sale, their door staffer, the buyers and the courtesy links. */
export interface World {
  adminToken: string;
  /** The event that sells out, and one with room to spare. */
  rush: string;
  main: string;
  doorStaff: Person;
  users: Person[];
  linkCodes: string[];
}

const CODE_SUBJECT = 'Seu código de verificação';

/** A new account, its e-mail verified with the code that arrived in the stack's mail catcher. */
export async function registerPerson(stack: Stack, client: Client, label: string): Promise<Person> {
  const person = {
    name: `${label} Cardoso Lima`,
    email: `${label.toLowerCase().replaceAll(' ', '.')}.${randomBytes(4).toString('hex')}@example.com.br`,
    password: 'compra-segura-1',
    cpf: makeCpf(),
  };
  const registered = await client.call('POST', '/api/auth/register', {
    body: {
      ...person,
      birthDate: '21/07/1991',
      phone: '(11) 98888-7777',
      address: 'Rua Haddock Lobo, 595 — Cerqueira César, São Paulo — SP',
    },
  });
  if (registered.status >= 300) throw new Error(`registration refused: ${JSON.stringify(registered.body)}`);
  const mail = await waitFor(
    () => stack.catcher!.messages().find((m) => m.to.includes(person.email) && m.subject === CODE_SUBJECT),
    { timeoutMs: 60_000 },
  );
  const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1];
  const verified = await client.call('POST', '/api/auth/verify-code', { body: { email: person.email, code } });
  if (verified.status !== 200) throw new Error(`verification refused: ${JSON.stringify(verified.body)}`);
  return { ...person, token: verified.body.token };
}

async function login(client: Client, email: string, password: string): Promise<string> {
  const answer = await client.call('POST', '/api/auth/login', { body: { email, password } });
  if (answer.status !== 200) throw new Error(`login refused for ${email}: ${JSON.stringify(answer.body)}`);
  return answer.body.token;
}

async function createEvent(client: Client, adminToken: string, title: string, maxAttendees: number) {
  const created = await client.call('POST', '/api/events', {
    token: adminToken,
    body: {
      title,
      description: 'Casos práticos de acompanhamento farmacoterapêutico.',
      date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      location: 'Belo Horizonte — MG',
      price: '150.00',
      maxAttendees,
    },
  });
  if (created.status !== 201) throw new Error(`event not created: ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

/** A staffer of both events' doors, signed in again so the token carries the role, once the door knows them. */
async function doorStaffer(stack: Stack, client: Client, adminToken: string, events: string[]): Promise<Person> {
  const person = await registerPerson(stack, client, 'Portaria');
  const granted = await client.call('PUT', '/api/admin/users/roles', {
    token: adminToken,
    body: { email: person.email, roles: ['doorStaff'] },
  });
  if (granted.status !== 200) throw new Error(`role not granted: ${JSON.stringify(granted.body)}`);
  for (const eventId of events) {
    const saved = await client.call('PUT', '/api/admin/users/door-staff', {
      token: adminToken,
      body: { eventId, emails: [person.email] },
    });
    if (saved.status !== 200) throw new Error(`door staff not assigned: ${JSON.stringify(saved.body)}`);
  }
  const token = await login(client, person.email, person.password);
  for (const eventId of events) {
    await waitFor(
      async () => (await client.call('GET', `/api/door/events/${eventId}/counts`, { token })).status === 200,
      { timeoutMs: 60_000 },
    );
  }
  return { ...person, token };
}

/** Runs `work` for 0…n-1, `width` at a time, answers in order. */
export async function inBatches<T>(n: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let from = 0; from < n; from += width) {
    const batch = Array.from({ length: Math.min(width, n - from) }, (_, i) => work(from + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

export async function prepareWorld(stack: Stack, client: Client, plan: ChaosPlan): Promise<World> {
  const adminToken = await login(client, stack.admin.email, stack.admin.password);
  const rush = await createEvent(client, adminToken, 'Imersão em Farmácia Hospitalar', plan.rushSpots);
  const main = await createEvent(client, adminToken, 'Congresso de Farmácia Clínica', 5000);
  const doorStaff = await doorStaffer(stack, client, adminToken, [rush, main]);
  const users = await inBatches(plan.users, 4, (i) => registerPerson(stack, client, `Comprador ${i + 1}`));
  const linkCodes = await inBatches(plan.courtesyLinks, 1, async () => {
    const link = await client.call('POST', '/api/courtesy-links', {
      token: adminToken,
      body: { eventId: main, ticketCount: plan.users, overridePrice: null },
    });
    if (link.status !== 201) throw new Error(`courtesy link not created: ${JSON.stringify(link.body)}`);
    return link.body.code as string;
  });
  return { adminToken, rush, main, doorStaff, users, linkCodes };
}
