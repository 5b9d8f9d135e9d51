import { randomUUID } from 'node:crypto';
import type { EventPayload, EventType } from '@ticketing/proto';
import { publishAsOwner, waitFor } from '@ticketing/testkit';
import { verifiedBuyer } from '../../scripts/lib/system.ts';
import { checkIn, eventWithSessions, ticketOf } from '../../services/certificates/test/support.ts';
import { startBrowserStack, type BrowserStack } from './support.ts';

let stack: BrowserStack;

beforeAll(async () => {
  stack = await startBrowserStack();
});
afterAll(() => stack?.stop());

/** Announces what catalog, tickets and the door would, and waits for certificates to hear it. */
async function announce<T extends EventType>(type: T, payload: EventPayload<T>) {
  const { system } = stack;
  const envelope = await publishAsOwner(system.catalog, type, randomUUID(), payload);
  await waitFor(async () => (await system.certificates.db('inbox').where({ event_id: envelope.id })).length === 1);
}

test('the back office releases and corrects certificates; the holder downloads theirs; the check reads without JavaScript', async () => {
  const { system } = stack;
  const holder = await verifiedBuyer(system);
  const me = await system.call('GET', '/api/auth/me', { token: holder.token });
  const event = eventWithSessions({ sessions: 2, hours: 4 });
  await announce('event.changed', event);
  const ticket = {
    ...ticketOf(event, 'Beatriz Campos'),
    userId: me.body.id,
    buyer: { name: 'Beatriz Campos', email: holder.email },
  };
  await announce('ticket.issued', ticket);
  for (const session of event.sessions!) await announce('ticket.checked-in', checkIn(ticket, session.id));
  const admin = await system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });

  const back = await (await stack.newContext({ token: admin.body.token })).newPage();
  await back.goto(`/admin/eventos/${event.eventId}/certificados`);
  await back.getByRole('heading', { name: 'Certificados', exact: true }).waitFor();
  await back.getByText('Nenhum certificado emitido ainda.').waitFor();
  await back.getByLabel('Emitir certificados de participação para este evento').check();
  await back.getByLabel('Nome de quem assina').fill('Dra. Helena Prado');
  await back.getByRole('button', { name: 'Salvar configurações' }).click();
  await back.getByText('Configurações do certificado salvas', { exact: true }).waitFor();
  await back.getByRole('button', { name: 'Emitir certificados' }).click();
  await back.getByText('1 certificado emitido; 0 participantes sem a frequência mínima.', { exact: true }).waitFor();
  const row = back.getByRole('row', { name: /Beatriz Campos/ });
  await row.getByText('válido').waitFor();
  await row.getByRole('button', { name: 'Corrigir nome' }).click();
  await back.getByLabel('Nome correto').fill('Beatriz Campos Rocha');
  await back.getByRole('button', { name: 'Reemitir' }).click();
  await back.getByText('Certificado reemitido', { exact: true }).waitFor();
  await back
    .getByRole('row', { name: /Beatriz Campos Rocha/ })
    .getByText('válido')
    .waitFor();
  await back
    .getByRole('row', { name: /Beatriz Campos\s/ })
    .getByText('substituído')
    .waitFor();

  const profile = await (await stack.newContext({ token: holder.token })).newPage();
  await profile.goto('/profile');
  await profile.getByRole('tab', { name: 'Meus certificados' }).click();
  await profile.getByText(event.title).first().waitFor();
  const [download] = await Promise.all([
    profile.waitForEvent('download'),
    profile.getByRole('button', { name: 'Baixar PDF' }).click(),
  ]);
  const [current] = (await system.call('GET', '/api/certificates', { token: holder.token })).body.filter(
    (certificate: { status: string }) => certificate.status === 'válido',
  );
  expect(download.suggestedFilename()).toBe(`certificado-${current.code}.pdf`);

  const check = await (await stack.newContext({ javaScriptEnabled: false })).newPage();
  const answer = await check.goto(`/certificados/${current.code}`);
  expect(answer?.status()).toBe(200);
  await check.getByText('Beatriz Campos Rocha').waitFor();
  await check.getByText('Este certificado é autêntico e está válido.').waitFor();
});
