import type { CreateEvent } from '@ticketing/proto';

/** One event of the demonstration catalog; its date is counted from the moment of seeding. */
export interface SeedEvent {
  /** Names the illustration in gateway/public/images/events. */
  slug: string;
  /** Days from the seeding day (negative: already happened). */
  daysFromNow: number;
  /** Starting time in Brasília (UTC−03:00). */
  time: string;
  title: string;
  description: string;
  location: string;
  price: string;
  maxAttendees: number | null;
  listed?: boolean;
  /** Spots already taken when the catalog is seeded. */
  attendees?: number;
  /** Its days, for an event of several; else one session from `time`. `day` counts from its first day. */
  sessions?: { day: number; starts: string; ends: string; title: string }[];
  /** Certificates of attendance, as its description promises: who signs them. */
  certificate?: { signerName: string; signerRole: string };
  /** Card installments beyond 1x: at most `max`, each at least `minValue`. */
  installments?: { max: number; minValue: string };
  /** What it sells, when more than one ticket at `price`: lots end `endsInDays` from the seeding day, at 23:59. */
  ticketTypes?: {
    name: string;
    price: string;
    capacity?: number;
    requiresDocument?: boolean;
    lots?: { price: string; endsInDays?: number }[];
  }[];
}

export const seedEvents: SeedEvent[] = [
  {
    slug: 'workshop-bpf-sao-paulo',
    daysFromNow: 10,
    time: '09:00',
    title: 'Workshop de Boas Práticas de Fabricação — São Paulo',
    description:
      'Um dia de imersão nas exigências da RDC 658/2022 para a fabricação de medicamentos. Estudos de caso reais ' +
      'de inspeções, gestão de desvios e CAPA, e a preparação da equipe para auditorias da Anvisa. Indicado para ' +
      'profissionais de garantia da qualidade, produção e assuntos regulatórios.',
    location: 'Centro de Convenções Rebouças, São Paulo – SP',
    price: '390.00',
    maxAttendees: 60,
    attendees: 18,
  },
  {
    slug: 'simposio-farmacovigilancia-belo-horizonte',
    daysFromNow: 35,
    time: '08:30',
    title: 'Simpósio de Farmacovigilância e Segurança do Paciente',
    description:
      'Especialistas da indústria e de hospitais discutem a detecção, a avaliação e a notificação de eventos ' +
      'adversos segundo a RDC 406/2020. Painéis sobre gerenciamento de risco, sinais de segurança e comunicação ' +
      'com profissionais de saúde. Inclui sessão de pôsteres e certificado de participação.',
    location: 'Minascentro, Belo Horizonte – MG',
    price: '590.00',
    maxAttendees: 200,
    attendees: 74,
    certificate: { signerName: 'Dra. Helena Prado', signerRole: 'Coordenadora científica' },
  },
  {
    slug: 'workshop-farmacia-clinica-montes-claros',
    daysFromNow: 45,
    time: '08:00',
    title: 'Workshop de Farmácia Clínica — Montes Claros',
    description:
      'Turma fechada para farmacêuticos da rede hospitalar do Norte de Minas. Revisão da farmacoterapia, ' +
      'conciliação medicamentosa e acompanhamento de pacientes polimedicados, com discussão de casos clínicos ' +
      'em pequenos grupos.',
    location: 'Auditório do Hospital Universitário, Montes Claros – MG',
    price: '250.00',
    maxAttendees: 50,
    listed: false,
    attendees: 12,
  },
  {
    slug: 'workshop-validacao-metodos-campinas',
    daysFromNow: 60,
    time: '09:00',
    title: 'Workshop de Validação de Métodos Analíticos',
    description:
      'Planejamento e execução da validação de métodos conforme a RDC 166/2017: seletividade, linearidade, ' +
      'precisão, exatidão e robustez. Exercícios práticos de tratamento estatístico dos dados e elaboração do ' +
      'relatório de validação. Vagas limitadas para garantir o trabalho em bancada.',
    location: 'Centro de Convenções da Unicamp, Campinas – SP',
    price: '690.00',
    maxAttendees: 40,
    attendees: 40,
  },
  {
    slug: 'jornada-atencao-farmaceutica-rio',
    daysFromNow: 90,
    time: '14:00',
    title: 'Jornada de Atenção Farmacêutica na Farmácia Comunitária',
    description:
      'Uma tarde dedicada aos serviços clínicos na farmácia: aferição de parâmetros, acompanhamento de ' +
      'doenças crônicas e orientação ao paciente. Palestras curtas e oficinas de comunicação para farmacêuticos ' +
      'de drogarias e farmácias de manipulação.',
    location: 'Centro de Convenções SulAmérica, Rio de Janeiro – RJ',
    price: '150.00',
    maxAttendees: null,
  },
  {
    slug: 'congresso-assuntos-regulatorios-sao-paulo',
    daysFromNow: 120,
    time: '08:00',
    title: 'Congresso Brasileiro de Assuntos Regulatórios Farmacêuticos',
    description:
      'Dois dias de conferências sobre registro e pós-registro de medicamentos, convergência regulatória ' +
      'internacional e novas normas da Anvisa. Mesas-redondas com representantes da indústria, da academia e ' +
      'de agências reguladoras, além de área de exposição e networking.',
    location: 'Centro de Convenções Frei Caneca, São Paulo – SP',
    price: '1290.00',
    maxAttendees: 800,
    attendees: 215,
    installments: { max: 10, minValue: '100.00' },
    sessions: [
      { day: 0, starts: '08:00', ends: '18:00', title: 'Dia 1' },
      { day: 1, starts: '08:00', ends: '18:00', title: 'Dia 2' },
    ],
    ticketTypes: [
      {
        name: 'Profissional',
        price: '1290.00',
        lots: [{ price: '990.00', endsInDays: 60 }, { price: '1290.00' }],
      },
      { name: 'Estudante', price: '590.00', capacity: 150, requiresDocument: true },
    ],
  },
  {
    slug: 'simposio-farmacia-hospitalar-oncologica',
    daysFromNow: 150,
    time: '08:30',
    title: 'Simpósio de Farmácia Hospitalar e Oncológica',
    description:
      'Manipulação segura de antineoplásicos, gestão de estoques de alto custo e o papel do farmacêutico na ' +
      'equipe multiprofissional de oncologia. Apresentações de serviços de referência e discussão de indicadores ' +
      'de qualidade na farmácia hospitalar.',
    location: 'Expo Unimed, Curitiba – PR',
    price: '490.00',
    maxAttendees: 150,
    attendees: 33,
  },
  {
    slug: 'curso-integridade-de-dados',
    daysFromNow: 180,
    time: '09:00',
    title: 'Curso de Integridade de Dados em Laboratórios Farmacêuticos',
    description:
      'Os princípios ALCOA+ aplicados ao laboratório de controle de qualidade: trilhas de auditoria, sistemas ' +
      'computadorizados e revisão de dados brutos. O curso combina exposição teórica, análise de não ' +
      'conformidades reais e um roteiro de autoinspeção para levar à empresa.',
    location: 'Hotel Pullman Vila Olímpia, São Paulo – SP',
    price: '790.00',
    maxAttendees: 35,
    attendees: 6,
  },
  {
    slug: 'workshop-estudos-de-estabilidade',
    daysFromNow: 240,
    time: '09:00',
    title: 'Workshop de Estudos de Estabilidade de Medicamentos',
    description:
      'Desenho de estudos de estabilidade segundo a RDC 318/2019, escolha das condições de armazenamento e ' +
      'definição do prazo de validade. Discussão de produtos de degradação, estudos de fotoestabilidade e ' +
      'mudanças pós-registro.',
    location: 'Centro de Convenções da Unicamp, Campinas – SP',
    price: '590.00',
    maxAttendees: 45,
  },
  {
    slug: 'workshop-cosmetovigilancia',
    daysFromNow: -20,
    time: '09:00',
    title: 'Workshop de Cosmetovigilância e Regularização de Cosméticos',
    description:
      'Notificação e registro de produtos de higiene pessoal, cosméticos e perfumes, rotulagem e o sistema de ' +
      'cosmetovigilância. Encontro prático com modelos de documentação e simulação de um processo junto à Anvisa.',
    location: 'Centro de Convenções SulAmérica, Rio de Janeiro – RJ',
    price: '390.00',
    maxAttendees: 60,
  },
];

const BRASILIA_OFFSET_HOURS = -3;

/** The calendar day `days` after today in Brasília, at `time` there, as an ISO instant with its offset. */
export function brasiliaDate(now: Date, days: number, time: string): string {
  const local = new Date(now.getTime() + BRASILIA_OFFSET_HOURS * 3_600_000);
  local.setUTCDate(local.getUTCDate() + days);
  return `${local.toISOString().slice(0, 10)}T${time}:00-03:00`;
}

/** The seed events as the create use case takes them, dated from `now`. */
export function seedEventInputs(now: Date): { seed: SeedEvent; input: CreateEvent }[] {
  return seedEvents.map((seed) => ({
    seed,
    input: {
      title: seed.title,
      description: seed.description,
      date: brasiliaDate(now, seed.daysFromNow, seed.time),
      location: seed.location,
      price: seed.price,
      imageUrl: `/images/events/${seed.slug}.svg`,
      maxAttendees: seed.maxAttendees,
      listed: seed.listed ?? true,
      ...(seed.installments && {
        maxInstallments: seed.installments.max,
        minInstallmentValue: seed.installments.minValue,
      }),
      sessions: seed.sessions?.map((session) => ({
        startsAt: brasiliaDate(now, seed.daysFromNow + session.day, session.starts),
        endsAt: brasiliaDate(now, seed.daysFromNow + session.day, session.ends),
        title: session.title,
      })),
      ticketTypes: seed.ticketTypes?.map((type) => ({
        name: type.name,
        price: type.price,
        capacity: type.capacity ?? null,
        hidden: false,
        requiresDocument: type.requiresDocument ?? false,
        salesStartAt: null,
        salesEndAt: null,
        lots: (type.lots ?? []).map((lot) => ({
          name: null,
          price: lot.price,
          endsAt: lot.endsInDays === undefined ? null : brasiliaDate(now, lot.endsInDays, '23:59'),
          quantity: null,
        })),
      })),
    },
  }));
}
