import { brand } from '@ticketing/proto';
import { startTestService } from '@ticketing/testkit';
import {
  courtesyAttachment,
  describeError,
  emailEvents,
  isPermanent,
  mailService,
  renderEmail,
  resetPasswordUrl,
  templates,
} from '../src/index.ts';
import { duration, greeting, html, safeUrl } from '../src/templates/index.ts';

describe('templates', () => {
  const samples = {
    'verification-code': { name: 'Ana Lima', code: '012345', validMinutes: 15 },
    'password-reset': { name: 'Ana Lima', resetUrl: 'https://site.example/reset-password?token=x', validMinutes: 60 },
    'sign-in-link': { name: 'Ana Lima', signInUrl: 'https://site.example/entrar-com-link?token=x', validMinutes: 15 },
    'registration-attempted': {
      name: 'Ana Lima',
      taken: ['email', 'cpf'],
      loginUrl: 'https://site.example/login',
      forgotPasswordUrl: 'https://site.example/forgot-password',
    },
    ticket: {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventId: '6b0f7c1e-3a55-4c1e-9d7a-2f4b8f3c9a11',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      location: 'Belo Horizonte — MG',
      qrPng: 'iVBORw0KGgo=',
      publicUrl: 'https://site.example',
    },
    'order-confirmed': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      location: 'Belo Horizonte — MG',
      amount: '580.00',
      lines: [
        { typeName: 'Profissional', holderName: 'Ana Lima', price: '390.00' },
        { typeName: 'Estudante', holderName: 'Caio & Prado', price: '190.00' },
      ],
      profileUrl: 'https://site.example/profile',
    },
    'pix-payment': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      amount: '155.00',
      expiresAt: '2027-03-01T17:32:00.000Z',
      pixPayload: '00020126580014br.gov.bcb.pix0136exemplo5204000053039865802BR6304ABCD',
      qrPng: 'iVBORw0KGgo=',
      profileUrl: 'https://site.example/profile',
    },
    'boleto-payment': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      amount: '155.00',
      expiresAt: '2027-03-10T02:59:59.000Z',
      boletoUrl: 'https://sandbox.example/b/pdf/abc',
      boletoLine: '23790001246004123456789012345678912340000015500',
      profileUrl: 'https://site.example/profile',
    },
    'card-payment-link': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      amount: '155.00',
      invoiceUrl: 'https://sandbox.example/i/abc',
      expiresAt: '2027-03-02T17:02:00.000Z',
    },
    'withdrawal-refused': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      usedAt: '2027-03-12T21:15:00.000Z',
    },
    'payment-refunded': { name: 'Ana Lima', orderNumber: 'EF-000123', eventTitle: 'Workshop', amount: '155.00' },
    'order-refunded': { name: 'Ana Lima', orderNumber: 'EF-000123', eventTitle: 'Workshop', amount: '155.00' },
    'order-chargeback': { name: 'Ana Lima', orderNumber: 'EF-000123', eventTitle: 'Workshop', amount: '155.00' },
    'event-cancelled': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      location: 'Belo Horizonte — MG',
      amount: '155.00',
    },
    'courtesy-invitation': {
      name: 'Ana Lima',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      location: 'Belo Horizonte — MG',
      code: 'CDPI12345ABC',
      redeemUrl: 'https://site.example/cortesia?code=CDPI12345ABC',
      ticketCount: 3,
      overridePrice: null,
      attachmentName: null,
    },
    'company-billing': {
      orderNumber: 'EF-000123',
      eventTitle: 'Workshop de Farmácia Clínica',
      eventDate: '2027-03-12T22:00:00.000Z',
      amount: '155.00',
      company: { cnpj: '11222333000181', name: 'Drogaria Lima Ltda.', purchaseOrder: null },
      buyerName: 'Ana Lima',
      payment: {
        method: 'pix',
        expiresAt: '2027-03-01T17:32:00.000Z',
        pixPayload: '00020126580014br.gov.bcb.pix0136exemplo5204000053039865802BR6304ABCD',
        qrPng: 'iVBORw0KGgo=',
      },
    },
    'invoice-authorized': {
      name: 'Ana Lima',
      orderNumber: 'EF-000123',
      pdfUrl: 'https://sandbox.example/nfse/abc.pdf',
    },
    certificate: {
      name: 'Ana Lima',
      eventTitle: 'Workshop de Farmácia Clínica',
      hours: 7.5,
      code: '7KQ2-M9XD-4T1H-0BZC',
      verifyUrl: 'https://site.example/certificados/7KQ2-M9XD-4T1H-0BZC',
      corrected: false,
    },
  } as const;
  /** How e-mails open that are not to a person by first name: a company's finance, or whom a charge was made out to. */
  const openings: Record<string, string> = {
    'company-billing': 'Ao setor financeiro de Drogaria Lima Ltda.,',
    'invoice-authorized': 'Olá, Ana Lima!',
  };

  test.each(Object.keys(templates) as (keyof typeof templates)[])(
    '%s renders subject, text and HTML in the shared layout',
    (name) => {
      const email = renderEmail(name, samples[name] as never);
      expect(email.subject.length).toBeGreaterThan(0);
      expect(email.text.startsWith(`${openings[name as string] ?? 'Olá, Ana!'}\n`)).toBe(true);
      expect(email.text).toContain(`${brand.name} · ${brand.tagline}`);
      expect(email.text).toContain(`Dúvidas? ${brand.supportEmail} · ${brand.supportPhone}`);
      expect(email.text).toContain(brand.address);
      expect(email.text).not.toMatch(/<[a-z]/i);
      expect(email.html).toMatch(/^<!doctype html>\s*<html lang="pt-BR">/);
      expect(email.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />');
      expect(email.html).toContain(`<title>${email.subject}</title>`);
      expect(email.html).toContain('max-width:600px');
      expect(email.html).toContain('href="tel:+551140028922"');
      expect(email.html).toContain(`href="${brand.social.instagram}"`);
      expect(email.html).toContain('Este é um e-mail automático; por favor, não responda.');
      expect(email.html).not.toMatch(/<style|<script|class="/);
      expect(email.attachments).toHaveLength(
        { ticket: 3, 'pix-payment': 1, 'company-billing': 1 }[name as string] ?? 0,
      );
    },
  );

  test('the ticket shows the QR inline and attaches it, with the day, time and place in Brazilian terms', () => {
    const email = renderEmail('ticket', samples.ticket);
    expect(email.subject).toBe('Seu ingresso: Workshop de Farmácia Clínica');
    expect(email.html).toContain('src="cid:ingresso-qr"');
    expect(email.text).toContain('Data: sexta-feira, 12 de março de 2027');
    expect(email.text).toContain('Horário: 19:00');
    expect(email.text).toContain('Pedido: EF-000123');
    expect(email.text).toContain('abra o arquivo workshop-de-farmacia-clinica.ics, também anexado');
    expect(email.attachments).toEqual([
      { filename: 'ingresso-EF-000123.png', contentType: 'image/png', content: 'iVBORw0KGgo=', cid: 'ingresso-qr' },
      { filename: 'ingresso-EF-000123.png', contentType: 'image/png', content: 'iVBORw0KGgo=' },
      {
        filename: 'workshop-de-farmacia-clinica.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: expect.any(String),
      },
    ]);
    const card = renderEmail('card-payment-link', samples['card-payment-link']);
    expect(card.text).toContain('R$\u00a0155,00');
    expect(card.html).toContain('href="https://sandbox.example/i/abc"');
    expect(card.text).toContain(
      'A vaga fica reservada até as 14:02 (horário de Brasília) de terça-feira, 2 de março de 2027.',
    );
  });

  test('a ticket for someone else names its buyer and type; one issued again says the QR code before no longer works', () => {
    const forOther = renderEmail('ticket', {
      ...samples.ticket,
      ticketType: 'Estudante',
      requiresDocument: true,
      boughtBy: 'Marina Queiroz',
    });
    expect(forOther.text).toContain('Seu ingresso está confirmado. Marina Queiroz comprou este ingresso para você.');
    expect(forOther.text).toContain('Local: Belo Horizonte — MG\nTipo: Estudante\nPedido: EF-000123');
    expect(forOther.text).toContain('Leve um documento com foto');
    expect(forOther.html).toContain('Estudante');
    expect(forOther.text).not.toContain('não vale mais');

    const reissued = renderEmail('ticket', { ...samples.ticket, reissued: true });
    expect(reissued.text).toContain('Seu ingresso foi emitido novamente.');
    expect(reissued.text).toContain('O QR Code enviado antes não vale mais: use somente o deste e-mail.');
    expect(reissued.html).toContain('Seu ingresso foi emitido novamente');
    // An e-mail queued before types: no type, no buyer, not issued again.
    expect(renderEmail('ticket', samples.ticket).text).not.toMatch(/Tipo:|comprou|novamente|documento/);
  });

  test('the confirmation of an order lists each ticket with its type, holder and price', () => {
    const lines = [...samples['order-confirmed'].lines];
    const email = renderEmail('order-confirmed', { ...samples['order-confirmed'], lines });
    expect(email.subject).toBe('Pedido confirmado: Workshop de Farmácia Clínica');
    expect(email.text).toContain(
      'tem 2 ingressos:\n\n1. Profissional — Ana Lima — R$\u00a0390,00\n2. Estudante — Caio & Prado',
    );
    expect(email.text).toContain('Total: R$\u00a0580,00');
    expect(email.html).toContain('Estudante — Caio &amp; Prado — R$\u00a0190,00');

    const pix = renderEmail('pix-payment', { ...samples['pix-payment'], lines });
    expect(pix.text).toContain('Ingressos do pedido:\n- Profissional — Ana Lima — R$\u00a0390,00\n- Estudante');
    expect(pix.html).toContain('Ingresso 2');
    expect(renderEmail('pix-payment', samples['pix-payment']).text).not.toContain('Ingressos do pedido');
  });

  test('a courtesy invitation: free, or at a promotional price for each ticket; the attached file named', () => {
    const free = renderEmail('courtesy-invitation', samples['courtesy-invitation']);
    expect(free.subject).toBe('Você recebeu uma cortesia: Workshop de Farmácia Clínica');
    expect(free.text).toContain('Data: sexta-feira, 12 de março de 2027\nHorário: 19:00\nLocal: Belo Horizonte — MG');
    expect(free.text).toContain('Ingressos: 3 ingressos\nValor: Cortesia (grátis)\n');
    expect(free.text).toContain('Seu código de cortesia: CDPI12345ABC');
    expect(free.text).not.toMatch(/R\$|Preço promocional|arquivo/);
    expect(free.html).toContain('href="https://site.example/cortesia?code=CDPI12345ABC"');
    expect(free.html).toContain('Resgatar cortesia</a');
    expect(free.attachments).toEqual([]);

    const promotional = (ticketCount: number) =>
      renderEmail('courtesy-invitation', {
        ...samples['courtesy-invitation'],
        ticketCount,
        overridePrice: '1234.50',
        attachmentName: 'programa <final>.pdf',
      });
    expect(promotional(1).text).toContain('Ingressos: 1 ingresso\nPreço promocional: R$\u00a01.234,50\n');
    expect(promotional(2).text).toContain('Preço promocional: R$\u00a01.234,50 por ingresso\n');
    expect(promotional(1).text).toContain('Enviamos junto a este e-mail o arquivo programa <final>.pdf.');
    expect(promotional(1).html).toContain('o arquivo programa &lt;final&gt;.pdf.');
    expect(promotional(1).text).not.toContain('grátis');
    expect(() =>
      renderEmail('courtesy-invitation', { ...samples['courtesy-invitation'], overridePrice: '80' }),
    ).toThrow();
    expect(() =>
      renderEmail('courtesy-invitation', { ...samples['courtesy-invitation'], redeemUrl: 'javascript:alert(1)' }),
    ).toThrow();
  });

  test('every interpolated value is escaped in the HTML, in text and in attributes', () => {
    const hostile = `"><script>alert('x')</script>&`;
    const fragment = html`<a title="${hostile}">${hostile}</a>${[html`<b>${hostile}</b>`, null, false]}`;
    const escaped = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;';
    expect(fragment.value).toBe(`<a title="${escaped}">${escaped}</a><b>${escaped}</b>`);
    const email = renderEmail('password-reset', {
      name: hostile,
      resetUrl: 'https://site.example/reset-password?token=a"b<c',
      validMinutes: 60,
    });
    expect(email.html).not.toContain('<script');
    expect(email.html).toContain('Olá, &quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;!');
    expect(email.html).toContain('href="https://site.example/reset-password?token=a&quot;b&lt;c"');
  });

  test('links other than web, mail and phone are refused', () => {
    expect(() => safeUrl('javascript:alert(1)')).toThrow('unsafe link protocol javascript:');
    expect(() => safeUrl('data:text/html,x')).toThrow();
    expect(safeUrl('https://a.example/x')).toBe('https://a.example/x');
    expect(() =>
      renderEmail('password-reset', { name: 'A', resetUrl: 'javascript:alert(1)', validMinutes: 60 }),
    ).toThrow();
  });

  test('data that does not fit the template is refused', () => {
    expect(() => renderEmail('verification-code', { name: 'A', code: '12345', validMinutes: 15 })).toThrow();
    expect(() => renderEmail('verification-code', { name: 'A', code: '123456' } as never)).toThrow();
  });

  test('pt-BR wording of greetings and durations', () => {
    expect(greeting('  Maria   Souza ')).toBe('Olá, Maria!');
    expect(greeting('   ')).toBe('Olá!');
    expect([1, 15, 60, 90, 120, 61].map(duration)).toEqual([
      '1 minuto',
      '15 minutos',
      '1 hora',
      '1 hora e 30 minutos',
      '2 horas',
      '1 hora e 1 minuto',
    ]);
  });
});

describe('events to e-mails', () => {
  const event = (occurredAt: string) => ({
    id: '6b0f7c1e-3a55-4c1e-9d7a-2f4b8f3c9a10',
    type: 'x',
    occurredAt,
    correlationId: 'c',
    causationId: null,
    key: 'k',
    payload: {},
  });

  test('the validity shown is the time from the event to the expiry', async () => {
    const [email] = await emailEvents['user.verification-code-issued']!(
      {
        userId: '6b0f7c1e-3a55-4c1e-9d7a-2f4b8f3c9a11',
        email: 'a@example.com',
        name: 'A',
        code: '123456',
        expiresAt: '2026-05-01T12:15:00.000Z',
      },
      {
        event: event('2026-05-01T12:00:00.200Z'),
        publicUrl: 'https://x.example',
        courtesyUrl: 'http://c.example',
        certificatesUrl: 'http://z.example',
      },
    );
    expect(email).toMatchObject({ template: 'verification-code', data: { validMinutes: 15 } });
  });

  test('the file of a mass send is fetched from COURTESY_URL, with a usable name and type', () => {
    const id = '6b0f7c1e-3a55-4c1e-9d7a-2f4b8f3c9a12';
    expect(
      courtesyAttachment('http://courtesy:3005/', { id, filename: 'programa.pdf', contentType: 'application/pdf' }),
    ).toEqual({
      filename: 'programa.pdf',
      contentType: 'application/pdf',
      href: `http://courtesy:3005/internal/attachments/${id}`,
    });
    expect(
      courtesyAttachment('http://c', { id, filename: ' ', contentType: 'Text/Plain; charset=UTF-8' }),
    ).toMatchObject({ filename: 'anexo', contentType: 'text/plain' });
    expect(courtesyAttachment('http://c', { id, filename: 'a.bin', contentType: '' }).contentType).toBe(
      'application/octet-stream',
    );
  });

  test('the reset link is built from PUBLIC_URL, with the token encoded', () => {
    expect(resetPasswordUrl('https://ingressos.example.com.br/', 'a+b/c=')).toBe(
      'https://ingressos.example.com.br/reset-password?token=a%2Bb%2Fc%3D',
    );
    expect(resetPasswordUrl('https://ex.example/loja', 'tok')).toBe('https://ex.example/loja/reset-password?token=tok');
  });
});

describe('delivery policy', () => {
  test('only refusals of the recipient or the message are permanent', () => {
    expect(isPermanent({ code: 'EENVELOPE', responseCode: 550 })).toBe(true);
    expect(isPermanent({ code: 'EMESSAGE', responseCode: 554 })).toBe(true);
    expect(isPermanent({ code: 'EENVELOPE' })).toBe(true);
    expect(isPermanent({ code: 'EENVELOPE', responseCode: 452 })).toBe(false);
    expect(isPermanent({ code: 'EAUTH', responseCode: 535 })).toBe(false);
    expect(isPermanent({ code: 'ESOCKET' })).toBe(false);
    expect(isPermanent(new Error('boom'))).toBe(false);
    expect(
      describeError(Object.assign(new Error('Mailbox\n unavailable'), { code: 'EENVELOPE', responseCode: 550 })),
    ).toBe('EENVELOPE 550 Mailbox unavailable');
    expect(describeError('x'.repeat(5000))).toHaveLength(1000);
    // A file that could not be fetched is named, without the query of a signed address.
    expect(
      describeError(
        Object.assign(new Error('Invalid status code 403'), {
          code: 'ESTREAM',
          sourceUrl: 'https://files.example/a.pdf?X-Amz-Signature=segredo',
        }),
      ),
    ).toBe('ESTREAM Invalid status code 403 (attachment https://files.example/a.pdf)');
    expect(isPermanent({ code: 'ESTREAM', sourceUrl: 'https://files.example/a.pdf' })).toBe(false);
  });
});

test('the service refuses to start with a bad SMTP_URL or MAIL_FROM, naming the setting', async () => {
  await expect(startTestService(mailService, { env: { SMTP_URL: 'http://mail.example' } })).rejects.toThrow(
    /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
  );
  await expect(startTestService(mailService, { env: { MAIL_FROM: 'Ninguém' } })).rejects.toThrow(
    /MAIL_FROM: must be an address/,
  );
  await expect(startTestService(mailService, { env: { MAIL_MAX_ATTEMPTS: '0' } })).rejects.toThrow(/MAIL_MAX_ATTEMPTS/);
  await expect(startTestService(mailService, { env: { COURTESY_URL: 'courtesy:3005' } })).rejects.toThrow(
    /COURTESY_URL: must be an http\(s\) URL/,
  );
});
