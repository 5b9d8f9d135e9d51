/** Who the site and its e-mails speak for: one place for the name and the contact details shown to people. */
export const brand = {
  name: 'Educação Farma',
  tagline: 'Workshops e eventos para a indústria farmacêutica',
  supportEmail: 'contato@educacaofarma.com.br',
  supportPhone: '(11) 4002-8922',
  address: 'Av. Paulista, 1000 — Bela Vista, São Paulo — SP',
  social: {
    instagram: 'https://www.instagram.com/educacaofarma',
    linkedin: 'https://www.linkedin.com/company/educacaofarma',
  },
} as const;
